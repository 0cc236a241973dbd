"""Benchmark: MLE-bench baselines on synthetic data, within one overall time budget.

    python bench/gpu_baselines.py                          # Lite's 22, 420 s in all, GPU if present
    python bench/gpu_baselines.py --smoke --time-budget 900  # small data, --smoke runs (2-core CPU)
    python bench/gpu_baselines.py --tasks leaf-classification,aerial-cactus-identification --time-budget 120
    python bench/gpu_baselines.py --tasks osic-pulmonary-fibrosis-progression,bms-molecular-translation
    python bench/gpu_baselines.py --tasks all --time-budget 3000  # every competition with a baseline
    python bench/gpu_baselines.py --json gpu.json --work /tmp/gpu-bench --pretrained none

``--tasks`` takes any competition with a baseline and a synthetic generator, in the order to run
them: a budget too short for all of them runs the first ones and names those it left out.

``--time-budget`` covers the whole script, from its start to the table (the default, 420 s,
is one device command of at most 600 s with room for the machine's start). Each competition
in turn is planned (``plan``) from what is left: it costs a baseline process's overhead (its
start, imports and grading, measured on each run; the largest so far stands for the next
one, a guess of 8 s before the first) plus its work, an equal share of the rest. A
competition whose work would fall under ``MIN_WORK_S`` (10 s) is not run: the last ones are
dropped first and reported as "not run: out of budget", never overrun silently. The default
gives all 22 about 11 s of work each when the overhead is 8 s, and the tabular baselines that
finish early hand their time on to the rest.

Work is data, then training. Data is written at the real competition's size when that fits a
third of the work, or else scaled down to fit: a small probe at the real image side is timed,
then the row (image, clip) counts are scaled by one factor for train and test. The rest is the
baseline's own ``--time-budget`` (at least two thirds of the work), which scales its epochs
(the scripts plan their steps to fit it). The baseline runs as ``python -m baselines run`` in
a fresh process (``--device``, ``--pretrained`` passed on), on the GPU when there is one, else
the CPU, and is killed at twice its share (its row says so). ``--smoke`` writes smoke-size data
and runs the baselines' ``--smoke`` (their own, fixed amount of training), still planned and
killed as above.

The table gives each competition's status, the scale used, planned and actual seconds (and
within them: data, the baseline's budget, its process), peak GPU memory (torch's peak
allocation) and peak CPU memory (the baseline process's own ``VmHWM``), both from its run
record, whether the submission is valid, its grade and the sample submission's. Synthetic
data has no real leaderboard: "beats sample" is the only verdict, and the scores say nothing
about the real competitions. ``--pretrained none`` (the default here: no machine this runs
on has the hub) means random weights, so networks start from scratch. Exit 0 when every
competition ran, is valid and beats the sample; 1 otherwise; 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import json
import logging
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TIME_BUDGET_S = 420.0  # everything, start to table: one device command (600 s) with room to start
OVERHEAD_S = 8.0  # a baseline process's start, imports and grading, until one is measured
MIN_WORK_S = 10.0  # data + training: a competition that cannot get this much is not run
DATA_SHARE = 1 / 3  # of each competition's work seconds, at most, for writing its data
KILL_AFTER = 2.0  # a baseline still running at this many times its share is killed


def plan(
    left_s: float, n_left: int, overhead_s: float, floor_s: float = MIN_WORK_S
) -> tuple[int, float]:
    """How many of the next ``n_left`` competitions fit in ``left_s`` seconds when each costs
    ``overhead_s`` and at least ``floor_s`` of work, and the next one's work seconds: an equal
    share of what is left once those that fit have paid their overheads.

    Those that do not fit are the last ones; none fits: ``(0, 0.0)``. What fits never adds
    up to more than ``left_s``, and re-planning after each competition hands on what it did
    not use (or takes back what it overran).
    """
    fits = min(n_left, int(max(0.0, left_s) // (overhead_s + floor_s)))
    return (fits, left_s / fits - overhead_s) if fits else (0, 0.0)


def gpu() -> str:
    try:
        import torch
    except ImportError:
        return "none (torch not installed)"
    return torch.cuda.get_device_name(0) if torch.cuda.is_available() else "none"


def plan_size(cid: str, seconds: float, work: Path) -> tuple[Any, float]:
    """The size to write so that writing takes about ``seconds``: a probe at the real image
    side is timed, and the real counts scaled by one factor (at most 1)."""
    from bench_adapters.mlebench.synthetic import SIZES, Size, make_prepared

    sizes = SIZES[cid]
    probe = Size(sizes.smoke.n_train, sizes.smoke.n_test, sizes.full.side)
    start = time.perf_counter()
    make_prepared(cid, work / "probe", probe.n_train, probe.n_test, side=probe.side, overwrite=True)
    per_unit = (time.perf_counter() - start) / (probe.n_train + probe.n_test)
    full_units = sizes.full.n_train + sizes.full.n_test
    factor = min(1.0, seconds / max(per_unit * full_units, 1e-9))
    size = Size(
        max(probe.n_train, round(sizes.full.n_train * factor)),
        max(probe.n_test, round(sizes.full.n_test * factor)),
        sizes.full.side,
    )
    return size, factor


def run_baseline(
    cid: str,
    data: Path,
    out: Path,
    budget_s: float | None,
    timeout_s: float,
    args: argparse.Namespace,
) -> dict[str, Any]:
    """One baseline in a fresh process (``--time-budget budget_s``; None: ``--smoke``), killed
    after ``timeout_s``; what its run record says, and the seconds spent outside its script
    (process start, imports, grading: the overhead the plan keeps back)."""
    cmd = [sys.executable, "-m", "baselines", "run", "--task", f"mlebench/{cid}"]
    cmd += ["--data-dir", str(data), "--out", str(out)]
    cmd += ["--smoke"] if budget_s is None else ["--time-budget", f"{budget_s:.1f}"]
    cmd += ["--pretrained", args.pretrained] if args.pretrained else []
    cmd += ["--device", args.device] if args.device else []
    out.mkdir(parents=True, exist_ok=True)
    log, record = out / "log.txt", out / "baseline.json"
    record.unlink(missing_ok=True)
    start = time.perf_counter()
    with open(log, "w") as f:
        try:
            code = subprocess.run(
                cmd, cwd=REPO, stdout=f, stderr=subprocess.STDOUT, timeout=max(1.0, timeout_s)
            ).returncode
            status = "ok" if code == 0 else f"exit {code}"
        except subprocess.TimeoutExpired:
            status = f"killed after {timeout_s:.0f}s"
    seconds = time.perf_counter() - start
    result: dict[str, Any] = {"status": status, "baseline_s": round(seconds, 1), "log": str(log)}
    result |= dict.fromkeys(("overhead_s", "peak_gpu_mib", "peak_rss_mib", "score"))
    result["valid"] = False
    if record.is_file():
        run = json.loads(record.read_text())
        grade = json.loads(Path(run["grade_path"]).read_text())
        result |= {
            "overhead_s": round(seconds - run["seconds"], 1),
            "peak_gpu_mib": run.get("peak_gpu_mib"),
            "peak_rss_mib": run.get("peak_rss_mib"),
            "score": grade["score"],
            "valid": grade["valid_submission"],
            "metric": run["metric"],
        }
    else:
        result["error"] = " | ".join(log.read_text().strip().splitlines()[-3:])
    return result


def sample_score(cid: str, data: Path) -> tuple[float | None, bool]:
    """The sample submission's score, and whether lower is better."""
    from bench_adapters import CompetitionTask, resolve_task

    task = resolve_task(f"mlebench/{cid}", data_dir=data)
    assert isinstance(task, CompetitionTask)
    return task.grade(task.sample_submission_path)["score"], task.is_lower_better


def beats(score: float | None, sample: float | None, lower_is_better: bool) -> bool:
    if score is None or sample is None:
        return False
    return score < sample if lower_is_better else score > sample


def fmt(value: Any, spec: str = "") -> str:
    return "-" if value is None else format(value, spec)


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| competition | status | scale | train / test | planned s | actual s | data s "
        "| budget s | baseline s | peak GPU MiB | peak RSS MiB | valid | score | sample "
        "| beats sample |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|",
    ]
    for r in rows:
        size = "-" if r["n_train"] is None else f"{r['n_train']:,} / {r['n_test']:,}"
        lines.append(
            f"| {r['competition']} | {r['status']} | {fmt(r['scale'])} | {size} "
            f"| {fmt(r['planned_s'])} | {fmt(r['actual_s'])} | {fmt(r['data_s'])} "
            f"| {fmt(r['budget_s'], '.0f')} | {fmt(r['baseline_s'])} "
            f"| {fmt(r['peak_gpu_mib'], ',.0f')} | {fmt(r['peak_rss_mib'], ',.0f')} "
            f"| {'yes' if r['valid'] else 'NO'} | {fmt(r['score'])} | {fmt(r['sample'])} "
            f"| {'yes' if r['beats_sample'] else 'NO'} |"
        )
    return "\n".join(lines)


def run_competition(
    cid: str, overhead_s: float, work_s: float, left_s: float, work: Path, args: argparse.Namespace
) -> dict[str, Any]:
    """Data, the baseline and the sample's grade for one competition planned ``overhead_s``
    + ``work_s`` seconds, with ``left_s`` left in all; its row of the table."""
    from bench_adapters.mlebench.synthetic import SIZES, make_prepared

    start = time.perf_counter()
    if args.smoke:
        size, factor = SIZES[cid].smoke, None
    else:
        size, factor = plan_size(cid, work_s * DATA_SHARE, work)
    make_prepared(cid, work / "data", size.n_train, size.n_test, side=size.side, overwrite=True)
    data_s = time.perf_counter() - start
    # Data that overran its third still leaves training two thirds; later shares pay.
    budget_s = max(work_s - data_s, work_s * (1 - DATA_SHARE))
    timeout = min(KILL_AFTER * (overhead_s + work_s), left_s - data_s)  # never past the end
    runs = work / "runs" / cid
    result = run_baseline(cid, work / "data", runs, None if args.smoke else budget_s, timeout, args)
    sample_start = time.perf_counter()
    sample, lower = sample_score(cid, work / "data")
    if result["overhead_s"] is not None:  # the sample's grade is the parent's overhead
        result["overhead_s"] = round(result["overhead_s"] + time.perf_counter() - sample_start, 1)
    scale = "smoke" if factor is None else ("full" if factor >= 1 else f"{factor:.3f}")
    return {
        "competition": cid,
        **result,
        "scale": scale,
        "n_train": size.n_train,
        "n_test": size.n_test,
        "side": size.side,
        "planned_s": round(overhead_s + work_s, 1),
        "actual_s": round(time.perf_counter() - start, 1),
        "data_s": round(data_s, 1),
        "budget_s": None if args.smoke else round(budget_s, 1),  # --smoke: the script's own
        "sample": sample,
        "beats_sample": beats(result["score"], sample, lower),
    }


NOT_RUN = "not run: out of budget"
COLUMNS = (
    "status", "scale", "n_train", "n_test", "side", "planned_s", "actual_s", "data_s",
    "budget_s", "baseline_s", "overhead_s", "peak_gpu_mib", "peak_rss_mib", "valid", "score",
    "sample", "beats_sample",
)  # fmt: skip


def not_run(cid: str) -> dict[str, Any]:
    return {"competition": cid, **dict.fromkeys(COLUMNS), "status": NOT_RUN, "valid": False}


def main(argv: list[str] | None = None) -> int:
    started = time.perf_counter()  # the budget covers everything from here to the table
    from baselines.registry import has_baseline
    from bench_adapters.mlebench import split_ids
    from bench_adapters.mlebench.synthetic import SIZES

    logging.basicConfig(level=logging.ERROR)  # synthetic data: no leaderboard warnings
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--tasks",
        help="comma-separated competition ids, first run first (default: Lite's 22); all: every "
        "competition with a baseline and synthetic data",
    )
    parser.add_argument(
        "--time-budget",
        type=float,
        default=TIME_BUDGET_S,
        help="seconds for everything (default: %(default)s)",
    )
    parser.add_argument("--smoke", action="store_true", help="small data, baselines' --smoke")
    parser.add_argument("--pretrained", default="none", help="passed on (default: none)")
    parser.add_argument("--device", choices=("cuda", "cpu"), help="passed on (default: auto)")
    parser.add_argument("--work", type=Path, help="data and runs folder (default: a temp dir)")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args(argv)
    known = sorted(c for c in SIZES if has_baseline(f"mlebench/{c}"))
    if args.tasks == "all":
        ids = known
    else:
        ids = [t.strip() for t in args.tasks.split(",")] if args.tasks else split_ids("lite")
    unknown = [t for t in ids if t not in known]
    if unknown:
        message = f"no baseline or no synthetic data for: {', '.join(unknown)}"
        parser.exit(2, f"error: {message}\n")
    if args.time_budget <= 0:
        parser.exit(2, "error: --time-budget must be positive\n")
    work = args.work or Path(tempfile.mkdtemp(prefix="gpu-baselines-"))
    fits, work_s = plan(args.time_budget - (time.perf_counter() - started), len(ids), OVERHEAD_S)
    print(
        f"GPU: {gpu()}; {len(ids)} competitions in {args.time_budget:.0f}s; work: {work}\n"
        f"plan: {fits} of {len(ids)} fit, each {OVERHEAD_S:.0f}s of overhead (a guess until "
        f"measured) + {work_s:.0f}s of data and training",
        flush=True,
    )

    rows: list[dict[str, Any]] = []
    overheads: list[float] = []  # measured: process start, imports, grading, sample's grade
    for k, cid in enumerate(ids):
        step_start = time.perf_counter()
        left = args.time_budget - (step_start - started)
        overhead = max(overheads, default=OVERHEAD_S)
        fits, work_s = plan(left, len(ids) - k, overhead)
        if not fits:
            rows += [not_run(c) for c in ids[k:]]
            print(f"{NOT_RUN} ({left:.0f}s left): {', '.join(ids[k:])}", flush=True)
            break
        row = run_competition(cid, overhead, work_s, left, work, args)
        if row["overhead_s"] is not None:
            overheads.append(row["overhead_s"])
        rows.append(row)
        print(json.dumps(row), flush=True)

    print()
    print(table(rows))
    total = time.perf_counter() - started
    skipped = [r["competition"] for r in rows if r["status"] == NOT_RUN]
    print(
        f"\ntotal {total:.0f}s of {args.time_budget:.0f}s planned; "
        f"{len(ids) - len(skipped)} of {len(ids)} run"
        + (f" ({NOT_RUN}: {', '.join(skipped)})" if skipped else "")
        + f"; overhead per baseline measured {fmt(min(overheads, default=None), '.1f')}-"
        f"{fmt(max(overheads, default=None), '.1f')}s; GPU: {gpu()}; weights: "
        f"{'random (--pretrained none)' if args.pretrained == 'none' else args.pretrained or 'hub'}"
    )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0 if all(r["status"] == "ok" and r["valid"] and r["beats_sample"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
