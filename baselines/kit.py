"""What every baseline script shares: its time budget, its log lines and its standalone CLI.

A baseline script is a module that defines, at its top, ``METRIC`` (its local validation
metric's name), ``SEED``, ``TIME_BUDGET_S`` and ``THREADS`` (its defaults), and::

    def main(public_dir, out_path, *, smoke=False, time_budget_s=TIME_BUDGET_S,
             threads=THREADS) -> float:   # the local validation score

A script that trains a network also takes ``device`` (``cuda``, ``cpu``, or None for the GPU
when there is one) and, when it starts from pretrained weights, ``pretrained`` (None for its
hub id, ``none`` for random weights, or a hub id or folder); ``call_main`` passes them only to
scripts that take them.

Its log lines have a fixed format, so a run reads the same by eye or by ``grep``::

    [    12.3s] read train.csv: 7,823 rows      progress, after the seconds spent so far
    val accuracy 0.80412 (5-fold CV)            the metric line: ^val (\\w+) (\\S+) \\(
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys
import tarfile
import threading
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

CORES = max(1, min(os.cpu_count() or 1, 16))
"""Threads for the scripts that train on millions of rows: the machine's cores, at most 16.
Scripts on a few thousand rows use one thread: there, OpenMP's synchronisation costs more than
a second core saves (10x slower on a busy 2-core machine)."""


class SetupError(RuntimeError):
    """An option this machine cannot honour: ``--device cuda`` without a GPU, pretrained
    weights that cannot be loaded. A script run alone, and ``python -m baselines run``, say
    its one line and exit 2."""


class BaselineMain(Protocol):
    def __call__(
        self,
        public_dir: Path,
        out_path: Path,
        *,
        smoke: bool = ...,
        time_budget_s: float = ...,
        threads: int = ...,
    ) -> float: ...


@dataclass
class Budget:
    """Wall-clock seconds a script may spend, from data to file."""

    seconds: float
    start: float = field(default_factory=time.monotonic)

    def spent(self) -> float:
        return time.monotonic() - self.start

    def left(self) -> float:
        return self.seconds - self.spent()

    def deadline(self, parts_left: int = 1, reserve_s: float = 0.0) -> float:
        """When the next of ``parts_left`` equal parts of what is left ends, keeping back
        ``reserve_s`` (for prediction and writing) but never more than half of what is left."""
        left = max(0.0, self.left())
        return time.monotonic() + (left - min(reserve_s, left / 2)) / max(1, parts_left)

    def log(self, message: str) -> None:
        print(f"[{self.spent():8.1f}s] {message}", flush=True)


PROBE_ROUND = 10
"""The round at which ``StopAtDeadline`` times a trial prediction (see there)."""


class StopAtDeadline:
    """LightGBM callback: stop in time to finish by a ``time.monotonic()`` deadline.

    Finishing includes predicting, whose cost grows with every round: given ``probe``, a sample
    of the rows the script predicts after training, and ``rows_to_predict``, how many such rows
    there are in all, it times a prediction of the sample at round ``PROBE_ROUND`` and from then
    on keeps back what predicting every row would cost with the rounds trained so far.

    When time is up it keeps the best round so far, judged on the first validation metric as
    ``early_stopping`` judges it, not the last one.
    """

    order = 40  # after early_stopping (30): a run that has already stopped is left alone

    def __init__(self, deadline: float, probe: Any = None, rows_to_predict: int = 0) -> None:
        self.deadline = deadline
        self.probe = probe
        self.rows_to_predict = rows_to_predict
        self.s_per_row_round = 0.0
        self.best_iteration = -1
        self.best_value = 0.0
        self.best_results: list[Any] = []

    def __call__(self, env: Any) -> None:
        import lightgbm as lgb

        results = env.evaluation_result_list or []
        if results:
            value, higher_is_better = results[0][2], results[0][3]
            better = value > self.best_value if higher_is_better else value < self.best_value
            if self.best_iteration < 0 or better:
                self.best_iteration, self.best_value = env.iteration, value
                self.best_results = list(results)
        rounds = env.iteration + 1
        if rounds == PROBE_ROUND and self.probe is not None and len(self.probe):
            start = time.monotonic()
            env.model.predict(self.probe)
            self.s_per_row_round = (time.monotonic() - start) / (len(self.probe) * rounds)
        predicting_s = self.s_per_row_round * self.rows_to_predict * rounds
        if time.monotonic() + predicting_s >= self.deadline:
            best = self.best_iteration if self.best_iteration >= 0 else env.iteration
            kept = f" (~{predicting_s:.0f}s kept back to predict)" if predicting_s else ""
            print(f"time budget reached at round {rounds}{kept}; keeping round {best + 1}")
            raise lgb.callback.EarlyStopException(best, self.best_results or list(results))


_open = threading.local()


def zip_member(archive: Path, name: str) -> bytes:
    """One member of a zip archive, through this thread's open handle on it: the archive's
    index is read once per thread, not once per member (which is quadratic in members)."""
    handles: dict[Path, zipfile.ZipFile] = _open.__dict__.setdefault("handles", {})
    if archive not in handles:
        handles[archive] = zipfile.ZipFile(archive)
    return handles[archive].read(name)


_tar_lock = threading.Lock()
_tar_index: dict[Path, dict[str, tuple[int, int]]] = {}


def tar_index(archive: Path) -> dict[str, tuple[int, int]]:
    """Where each file's bytes lie in an uncompressed tar archive: name -> (offset, size).
    The headers are read once a process (a tar has no index; its members can be many)."""
    with _tar_lock:
        if archive not in _tar_index:
            with tarfile.open(archive, "r:") as tar:
                found = {m.name: (m.offset_data, m.size) for m in tar if m.isfile()}
            _tar_index[archive] = found
        return _tar_index[archive]


def tar_member(archive: Path, name: str) -> bytes:
    """One member of an uncompressed tar archive, read at its offset (any thread)."""
    offset, size = tar_index(archive)[name]
    fd = os.open(archive, os.O_RDONLY)
    try:
        return os.pread(fd, size, offset)
    finally:
        os.close(fd)


def predict(model: Any, x: Any) -> np.ndarray:
    """A LightGBM booster's predictions at its best round, as an array."""
    return np.asarray(model.predict(x, num_iteration=model.best_iteration))


def stratified_holdout(
    y: np.ndarray, share: float, seed: int, groups: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Row numbers to fit on and to hold out (about ``share`` of them), each class spread
    over both sides in proportion. A class too small for its share holds out one row with
    probability size x share, and never its last one: a class of one row stays on the fitting
    side (scikit-learn's stratified split refuses such classes; the thin-class competitions
    are made of them). The hold-out is never empty when there are two rows or more. With
    ``groups`` (patients, sites), every group lies whole on one side, the groups stratified
    by their commonest label."""
    if groups is not None:
        keys = pd.Series(np.asarray(groups))
        commonest = pd.Series(np.asarray(y)).groupby(keys).agg(lambda s: s.value_counts().index[0])
        _, held_groups = stratified_holdout(commonest.to_numpy(), share, seed)
        in_val = keys.isin(set(commonest.index[held_groups])).to_numpy()
        return np.flatnonzero(~in_val), np.flatnonzero(in_val)
    rng = np.random.default_rng(seed)
    labels = pd.Series(np.asarray(y))
    held: list[np.ndarray] = []
    for rows in labels.groupby(labels, sort=True).indices.values():
        expected = len(rows) * share
        n = round(expected) if expected >= 1 else int(rng.random() < expected)
        held.append(rng.permutation(rows)[: min(n, len(rows) - 1)])
    val = np.sort(np.concatenate(held)) if held else np.zeros(0, np.int64)
    if len(val) == 0 and len(labels) >= 2:  # too few to stratify: one row, never none
        val = rng.integers(len(labels), size=1)
    return np.setdiff1d(np.arange(len(labels)), val), val


def metric_line(name: str, value: float, how: str) -> None:
    """The one fixed-format line that states the local validation metric."""
    print(f"val {name} {value:.5f} ({how})", flush=True)


def write_submission(frame: pd.DataFrame, out_path: Path, budget: Budget) -> None:
    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(out_path, index=False)
    names = list(map(str, frame.columns))
    columns = ",".join(names) if len(names) <= 8 else ",".join(names[:4]) + f",... ({len(names)})"
    budget.log(f"wrote {out_path} ({len(frame):,} rows, columns {columns})")


def call_main(
    module: ModuleType,
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float | None = None,
    threads: int | None = None,
    device: str | None = None,
    pretrained: str | None = None,
) -> float:
    """Run a script's ``main``, its own defaults standing in for unset options, with the BLAS
    and OpenMP thread pools capped at its thread count (idle BLAS threads spinning on a busy
    machine made a 0.04 s logistic regression take 0.3 s). ``device`` and ``pretrained`` go
    to the scripts that take them and are ignored by the others."""
    threads = threads if threads is not None else module.THREADS
    budget_s = time_budget_s if time_budget_s is not None else module.TIME_BUDGET_S
    extra = {
        name: value
        for name, value in (("device", device), ("pretrained", pretrained))
        if value is not None and name in takes(module)
    }
    with threadpool_limits(limits=threads):
        score: float = module.main(
            public_dir, out_path, smoke=smoke, time_budget_s=budget_s, threads=threads, **extra
        )
    return score


def takes(module: ModuleType) -> set[str]:
    """The keyword options a script's ``main`` accepts."""
    return set(inspect.signature(module.main).parameters)


def standalone(main: BaselineMain, doc: str | None, argv: list[str] | None = None) -> int:
    """``python -m baselines.<benchmark>.<task> --public-dir DIR [--out FILE] [--smoke]
    [--device D] [--pretrained P]``: exit 0, or 2 with one line on bad input or a
    ``SetupError``."""
    parser = argparse.ArgumentParser(
        description=doc, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--public-dir", type=Path, required=True, help="the task's public data")
    parser.add_argument("--out", type=Path, default=Path("submission.csv"), help="submission CSV")
    parser.add_argument("--smoke", action="store_true", help="train on a small sample (fast)")
    parser.add_argument("--time-budget", type=float, help="seconds (default: the script's own)")
    parser.add_argument("--threads", type=int, help="worker threads (default: the script's own)")
    module = sys.modules[main.__module__]
    options = takes(module)  # every script accepts both; those without a network ignore them
    parser.add_argument(
        "--device",
        choices=("auto", "cuda", "cpu"),
        help="default: auto" if "device" in options else "ignored: this script trains no network",
    )
    parser.add_argument(
        "--pretrained",
        help="none (random weights), a hub id or a folder (default: hub id)"
        if "pretrained" in options
        else "ignored: this script loads no pretrained weights",
    )
    args = parser.parse_args(argv)
    if not args.public_dir.is_dir():
        parser.exit(2, f"error: no such folder: {args.public_dir}\n")
    if (args.threads is not None and args.threads < 1) or (
        args.time_budget is not None and args.time_budget <= 0
    ):
        parser.exit(2, "error: --threads and --time-budget must be positive\n")
    try:
        call_main(
            module,
            args.public_dir,
            args.out,
            smoke=args.smoke,
            time_budget_s=args.time_budget,
            threads=args.threads,
            device=args.device,
            pretrained=args.pretrained,
        )
    except SetupError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0
