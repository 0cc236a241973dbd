"""Demo task generation: every demo task built from nothing, as ``make demo`` and the tests do.

    .venv/bin/python bench/demo_tasks.py              # 3 repeats
    .venv/bin/python bench/demo_tasks.py --repeats 5

Each repeat generates all of ``bench_adapters.demo.DEMO_IDS`` into a new empty folder, in this
process after a first warm-up build (so imports are not counted), and times each task. Goal: all
of them in 5 s or less (median) on 2 cores. tests/bench_adapters/test_demo.py checks that the
generation is reproducible; how fast it is, is measured here.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from bench_adapters.demo import DEMO_IDS, ensure_generated

GOAL_S = 5.0


def build_all(root: Path) -> dict[str, float]:
    """Seconds each demo task took to generate into ``root``."""
    seconds = {}
    for task_id in DEMO_IDS:
        start = time.perf_counter()
        ensure_generated(task_id, root)
        seconds[task_id] = time.perf_counter() - start
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="timed builds (default 3)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        build_all(Path(tmp) / "warm-up")
        runs = [build_all(Path(tmp) / f"run-{i}") for i in range(args.repeats)]
    total = statistics.median(sum(run.values()) for run in runs)
    result = {
        "tasks": len(DEMO_IDS),
        **{f"{t}_s_median": round(statistics.median(r[t] for r in runs), 3) for t in DEMO_IDS},
        "all_s_median": round(total, 3),
        "goal_s": GOAL_S,
        "verdict": "meets goal" if total <= GOAL_S else "MISSES goal",
    }
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
