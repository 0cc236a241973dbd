"""Benchmark: each CPU-only baseline on synthetic data of the real competition's size.

    python bench/baseline_times.py                              # all 7 at upstream's sizes
    python bench/baseline_times.py --tasks spaceship-titanic,nomad2018-predict-transparent-conductors
    python bench/baseline_times.py --work /tmp/bench-data --taxi-rows 5000000 --json bench.json

For each competition it writes synthetic prepared data with upstream's row counts
(``FULL_SIZES``: e.g. 3.6M training rows for tabular-playground-series-dec-2021, 5.4M for
ventilator-pressure-prediction) unless ``--work`` already holds it, then times
``python -m baselines run --task mlebench/<id>`` in a fresh process and records that process's
peak resident memory (``ru_maxrss`` from ``wait4``). Goal: each baseline within 15 minutes on 2
cores, its default time budget.

The taxi training set is 55.4M rows upstream (~7 GB of CSV, minutes to write). Its baseline
reads only the first ``MAX_TRAIN_ROWS`` (4M) rows, so any file at least that long times the
same: ``--taxi-rows`` caps what is generated (default: the full 55.4M).

The table's "val" column is the script's own validation metric and "test" the grader's score
of the submission; "sample" is the sample submission's score. Synthetic data has no real
leaderboard, so medals are not reported here.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TAXI = "new-york-city-taxi-fare-prediction"
GOAL_S = 15 * 60


def prepare(competition_id: str, data_dir: Path, taxi_rows: int | None) -> float:
    """Write full-size synthetic data (or reuse it); seconds spent writing."""
    from bench_adapters.mlebench.synthetic import make_prepared

    if (data_dir / competition_id / "prepared" / "private").is_dir():
        print(f"{competition_id}: reusing data in {data_dir}", flush=True)
        return 0.0
    print(f"{competition_id}: writing full-size synthetic data ...", flush=True)
    start = time.perf_counter()
    if competition_id == TAXI and taxi_rows is not None:
        make_prepared(competition_id, data_dir, n_train=taxi_rows, n_test=9_914)
    else:
        make_prepared(competition_id, data_dir, full_size=True)
    return time.perf_counter() - start


def count_rows(path: Path) -> int:
    with open(path, "rb") as f:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 24), b"")) - 1


def run(
    competition_id: str, data_dir: Path, out: Path, threads: int | None, budget_s: float | None
) -> dict[str, Any]:
    """Wall seconds and peak RSS of one fresh ``python -m baselines run`` process."""
    cmd = [sys.executable, "-m", "baselines", "run", "--task", f"mlebench/{competition_id}"]
    cmd += ["--data-dir", str(data_dir), "--out", str(out)]
    if threads is not None:
        cmd += ["--threads", str(threads)]
    if budget_s is not None:
        cmd += ["--time-budget", str(budget_s)]
    log = out.with_suffix(".log")
    out.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    with open(log, "w") as f:
        proc = subprocess.Popen(cmd, cwd=REPO, stdout=f, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        tail = log.read_text().splitlines()[-5:]
        raise RuntimeError(f"{' '.join(cmd)} exited {code}: {' | '.join(tail)}")
    baseline = json.loads((out / "baseline.json").read_text())
    return {"wall_s": wall, "peak_rss_mib": usage.ru_maxrss / 1024, "log": str(log), **baseline}


def sample_score(competition_id: str, data_dir: Path) -> float | None:
    from bench_adapters import resolve_task
    from bench_adapters.task import CompetitionTask

    task = resolve_task(f"mlebench/{competition_id}", data_dir=data_dir)
    assert isinstance(task, CompetitionTask)
    score: float | None = task.grade(task.sample_submission_path)["score"]
    return score


def main(argv: list[str] | None = None) -> int:
    from bench_adapters.mlebench import split_ids

    logging.basicConfig(level=logging.ERROR)  # no "no leaderboard" warnings: synthetic data

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tasks", help="comma-separated competition ids (default: all 7)")
    parser.add_argument("--work", type=Path, help="data folder, reused between runs")
    parser.add_argument("--taxi-rows", type=int, help="taxi training rows to generate")
    parser.add_argument("--threads", type=int, help="passed to each baseline")
    parser.add_argument(
        "--time-budget",
        type=float,
        help="seconds, passed to each baseline (default: its own, 15 min); a shorter budget "
        "measures reading, features, prediction and memory without the full training time",
    )
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    every = split_ids("cpu_only")
    ids = [t.strip() for t in args.tasks.split(",")] if args.tasks else every
    unknown = [t for t in ids if t not in every]
    if unknown:
        parser.exit(2, f"error: not CPU-only competitions: {', '.join(unknown)}\n")

    work = args.work or Path(tempfile.mkdtemp(prefix="bench-baselines-"))
    rows = []
    for cid in ids:
        gen_s = prepare(cid, work, args.taxi_rows)
        public = work / cid / "prepared" / "public"
        train_file = public / ("labels.csv" if cid == TAXI else "train.csv")
        result = run(cid, work, work / "runs" / cid, args.threads, args.time_budget)
        row = {
            "competition": cid,
            "train_rows": count_rows(train_file),
            "test_rows": count_rows(public / "test.csv"),
            "generate_s": round(gen_s, 1),
            "baseline_s": round(result["wall_s"], 1),
            "peak_rss_mib": round(result["peak_rss_mib"]),
            "metric": result["metric"],
            "val": result["val_score"],
            "test": result["test_score"],
            "sample": sample_score(cid, work),
            "time_budget_s": args.time_budget or GOAL_S,
            "within_goal": result["wall_s"] <= GOAL_S,
            "log": result["log"],
        }
        rows.append(row)
        print(json.dumps(row), flush=True)

    print()
    print(
        "| competition | train rows | test rows | baseline s | peak RSS MiB | metric | val | test | sample | <= 15 min |"
    )
    print("|---|---:|---:|---:|---:|---|---:|---:|---:|---|")
    for r in rows:
        print(
            f"| {r['competition']} | {r['train_rows']:,} | {r['test_rows']:,} | {r['baseline_s']} "
            f"| {r['peak_rss_mib']:,} | {r['metric']} | {r['val']:.5f} | {r['test']} "
            f"| {r['sample']} | {'yes' if r['within_goal'] else 'NO'} |"
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
