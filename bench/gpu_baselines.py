"""Benchmark: every MLE-bench Lite baseline on synthetic data, within one overall time budget.

    python bench/gpu_baselines.py                          # all 22, 420 s in all, GPU if present
    python bench/gpu_baselines.py --smoke                  # small data and --smoke runs (2-core CPU: ~6 min)
    python bench/gpu_baselines.py --tasks leaf-classification,aerial-cactus-identification --time-budget 120
    python bench/gpu_baselines.py --json gpu.json --work /tmp/gpu-bench --pretrained none

For each competition, in turn, it gets an equal share of what is left of ``--time-budget``.
It writes synthetic prepared data at the real competition's size when that fits a third of
the share, or else scaled down to fit: it first times writing a small probe at the real image
side, then scales the row (image, clip) counts by one factor for train and test. The rest of
the share is the baseline's own ``--time-budget``, which scales its epochs (the scripts plan
their steps to fit it). The baseline runs as ``python -m baselines run`` in a fresh process
(``--device``, ``--pretrained`` passed on), on the GPU when there is one, else the CPU.

The table gives the scale used, wall seconds (data, baseline), peak GPU memory (torch's peak
allocation, from the run record) and peak CPU memory (``ru_maxrss`` of the baseline process),
whether the submission is valid, its grade and the sample submission's. Synthetic data has no
real leaderboard: "beats sample" is the only verdict, and the scores say nothing about the
real competitions. ``--pretrained none`` (the default here: no machine this runs on has the
hub) means random weights, so networks start from scratch.
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
DATA_SHARE = 1 / 3  # of each competition's share, at most, for writing its data
MIN_BASELINE_S = 30.0  # a baseline needs this much for imports, decoding and one prediction


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
    cid: str, data: Path, out: Path, budget_s: float, args: argparse.Namespace
) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "baselines", "run", "--task", f"mlebench/{cid}"]
    cmd += ["--data-dir", str(data), "--out", str(out)]
    cmd += ["--smoke"] if args.smoke else ["--time-budget", f"{budget_s:.0f}"]
    cmd += ["--pretrained", args.pretrained] if args.pretrained else []
    cmd += ["--device", args.device] if args.device else []
    out.mkdir(parents=True, exist_ok=True)
    log = out / "log.txt"
    start = time.perf_counter()
    with open(log, "w") as f:
        proc = subprocess.Popen(cmd, cwd=REPO, stdout=f, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
    result: dict[str, Any] = {
        "baseline_s": round(time.perf_counter() - start, 1),
        "peak_rss_mib": round(usage.ru_maxrss / 1024),
        "exit": os.waitstatus_to_exitcode(status),
        "log": str(log),
    }
    record = out / "baseline.json"
    if record.is_file():
        run = json.loads(record.read_text())
        grade = json.loads(Path(run["grade_path"]).read_text())
        result |= {
            "peak_gpu_mib": run.get("peak_gpu_mib"),
            "score": grade["score"],
            "valid": grade["valid_submission"],
            "metric": run["metric"],
        }
    else:
        tail = " | ".join(log.read_text().strip().splitlines()[-3:])
        result |= {"peak_gpu_mib": None, "score": None, "valid": False, "error": tail}
    return result


def sample_score(cid: str, data: Path) -> tuple[float | None, bool]:
    """The sample submission's score, and whether lower is better."""
    from bench_adapters import resolve_task

    task = resolve_task(f"mlebench/{cid}", data_dir=data)
    return task.grade(task.sample_submission_path)["score"], task.is_lower_better


def beats(score: float | None, sample: float | None, lower_is_better: bool) -> bool:
    if score is None or sample is None:
        return False
    return score < sample if lower_is_better else score > sample


def fmt(value: Any, spec: str = "") -> str:
    return "-" if value is None else format(value, spec)


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| competition | scale | train / test | data s | budget s | wall s | peak GPU MiB "
        "| peak RSS MiB | valid | score | sample | beats sample |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['competition']} | {r['scale']} | {r['n_train']:,} / {r['n_test']:,} "
            f"| {r['data_s']} | {fmt(r['budget_s'], '.0f')} | {r['baseline_s']} | {fmt(r['peak_gpu_mib'], ',.0f')} "
            f"| {r['peak_rss_mib']:,} | {'yes' if r['valid'] else 'NO'} | {fmt(r['score'])} "
            f"| {fmt(r['sample'])} | {'yes' if r['beats_sample'] else 'NO'} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from bench_adapters.mlebench import split_ids
    from bench_adapters.mlebench.synthetic import SIZES, make_prepared

    logging.basicConfig(level=logging.ERROR)  # synthetic data: no leaderboard warnings
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tasks", help="comma-separated Lite competition ids (default: all 22)")
    parser.add_argument("--time-budget", type=float, default=420.0, help="seconds for everything")
    parser.add_argument("--smoke", action="store_true", help="small data, baselines' --smoke")
    parser.add_argument("--pretrained", default="none", help="passed on (default: none)")
    parser.add_argument("--device", choices=("cuda", "cpu"), help="passed on (default: auto)")
    parser.add_argument("--work", type=Path, help="data and runs folder (default: a temp dir)")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args(argv)
    lite = split_ids("lite")
    ids = [t.strip() for t in args.tasks.split(",")] if args.tasks else lite
    unknown = [t for t in ids if t not in lite or t not in SIZES]
    if unknown:
        parser.exit(2, f"error: not Lite competitions with synthetic data: {', '.join(unknown)}\n")
    work = args.work or Path(tempfile.mkdtemp(prefix="gpu-baselines-"))
    print(
        f"GPU: {gpu()}; {len(ids)} competitions in {args.time_budget:.0f}s; work: {work}",
        flush=True,
    )

    start, rows = time.perf_counter(), []
    for k, cid in enumerate(ids):
        share = (args.time_budget - (time.perf_counter() - start)) / (len(ids) - k)
        data_start = time.perf_counter()
        if args.smoke:
            size, factor = SIZES[cid].smoke, None
        else:
            size, factor = plan_size(cid, share * DATA_SHARE, work)
        make_prepared(cid, work / "data", size.n_train, size.n_test, side=size.side, overwrite=True)
        data_s = round(time.perf_counter() - data_start, 1)
        budget_s = max(MIN_BASELINE_S, share - data_s)  # --smoke runs keep their own
        result = run_baseline(cid, work / "data", work / "runs" / cid, budget_s, args)
        sample, lower = sample_score(cid, work / "data")
        scale = "smoke" if factor is None else ("full" if factor >= 1 else f"{factor:.3f}")
        row = {
            "competition": cid,
            "scale": scale,
            "n_train": size.n_train,
            "n_test": size.n_test,
            "side": size.side,
            "data_s": data_s,
            "budget_s": None if args.smoke else budget_s,
            **result,
            "sample": sample,
            "beats_sample": beats(result["score"], sample, lower),
        }
        rows.append(row)
        print(json.dumps(row), flush=True)

    print()
    print(table(rows))
    total = time.perf_counter() - start
    print(
        f"\ntotal {total:.0f}s of {args.time_budget:.0f}s; GPU: {gpu()}; weights: "
        f"{'random (--pretrained none)' if args.pretrained == 'none' else args.pretrained or 'hub'}"
    )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0 if all(r["valid"] and r["beats_sample"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
