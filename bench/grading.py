"""Benchmark: grade a ventilator-shaped submission of 603,600 rows (time and peak memory).

    python bench/grading.py                 # full size, 3 repeats
    python bench/grading.py --rows 80000    # quicker

It writes synthetic prepared data for ventilator-pressure-prediction (603,600 test rows, as
upstream's split gives) and a submission of the same shape into a temporary folder, then:

- times ``python -m bench_adapters grade`` end to end in a fresh process (imports, reading the
  answers and the submission, grading, report) and records that process's peak RSS;
- times the in-process stages: reading the submission, reading the answers, the grade function.

Goal: end-to-end grading in 2 s or less on a laptop-class CPU.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROWS = 603_600  # upstream's ventilator test split: 7,545 breaths x 80 steps
GOAL_S = 2.0


def _prepare(work: Path, rows: int) -> tuple[Path, Path]:
    from bench_adapters.mlebench.synthetic import answers_as_submission, make_prepared

    cid = "ventilator-pressure-prediction"
    make_prepared(cid, work / "data", n_train=800, n_test=rows, seed=0, overwrite=True)
    submission = answers_as_submission(cid, work / "data")
    noise = np.random.default_rng(0).normal(0, 1, len(submission))
    submission["pressure"] = submission["pressure"] + noise
    path = work / "submission.csv"
    submission.to_csv(path, index=False)
    return work / "data", path


def _cli_run(data_dir: Path, submission: Path) -> tuple[float, float, dict]:
    """Wall seconds, peak RSS (MiB) and report of one fresh ``grade`` process."""
    cmd = [
        sys.executable,
        "-m",
        "bench_adapters",
        "grade",
        "--task",
        "mlebench/ventilator-pressure-prediction",
        "--submission",
        str(submission),
        "--data-dir",
        str(data_dir),
    ]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}")
    return wall, usage.ru_maxrss / 1024, json.loads(out)


def _import_s() -> float:
    """Seconds a fresh process spends importing the CLI and the ventilator grader."""
    code = (
        "import bench_adapters.cli, bench_adapters.mlebench.graders.ventilator_pressure_prediction"
    )
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=ROWS, help="test rows (multiple of 80)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of each measure")
    args = parser.parse_args(argv)
    if args.rows <= 0 or args.rows % 80:
        parser.exit(2, "error: --rows must be a positive multiple of 80\n")

    from bench_adapters import resolve_task
    from bench_adapters.csvio import read_csv

    with tempfile.TemporaryDirectory() as tmp:
        data_dir, submission = _prepare(Path(tmp), args.rows)
        size_mb = submission.stat().st_size / 1e6
        import_s = [_import_s() for _ in range(args.repeat)]
        cli_s, rss = [], []
        for _ in range(args.repeat):
            wall, peak, report = _cli_run(data_dir, submission)
            cli_s.append(wall)
            rss.append(peak)
        task = resolve_task("mlebench/ventilator-pressure-prediction", data_dir=data_dir)
        stages: dict[str, list[float]] = {"read_submission": [], "read_answers": [], "grade_fn": []}
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            sub = read_csv(submission)
            t1 = time.perf_counter()
            answers = read_csv(task.answers_path)
            t2 = time.perf_counter()
            task.grader_spec.grade(sub, answers)
            t3 = time.perf_counter()
            for key, value in zip(stages, (t1 - t0, t2 - t1, t3 - t2), strict=True):
                stages[key].append(value)
    result = {
        "rows": args.rows,
        "submission_mb": round(size_mb, 1),
        "cli_grade_s_median": round(statistics.median(cli_s), 3),
        "cli_peak_rss_mib_max": round(max(rss), 1),
        "python_start_and_imports_s_median": round(statistics.median(import_s), 3),
        **{f"{k}_s_median": round(statistics.median(v), 3) for k, v in stages.items()},
        "score": report["score"],
        "goal_s": GOAL_S,
    }
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
