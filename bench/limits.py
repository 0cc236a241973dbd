"""Benchmark: how far past its time limit a run with the real local model ends.

    python bench/limits.py                  # 20 runs, limits drawn from 30-120 s
    python bench/limits.py --runs 5 --min 20 --max 40

Each run is ``python -m scaffolds.iterative`` on the demo task with the bundled local model
(SmolLM2-135M over llama.cpp's HTTP server), no output cap, and a time limit drawn at random
(seeded). The model often writes until its window is full, so calls are cut at the limit. For
each run it prints the limit, the run's agent time and wall time from run.json, the wall time
of the whole command, the overshoot (the run's wall time minus the limit; the command's own
start-up, before the run's clock starts, is shown but not counted) and the status; then the
largest overshoot. Goal: at most 5 s plus ``scaffolds.session.MODEL_GRACE_S``.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scaffolds.session import MODEL_GRACE_S

GOAL_S = 5.0 + MODEL_GRACE_S


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--min", type=float, default=30.0, help="shortest time limit, seconds")
    parser.add_argument("--max", type=float, default=120.0, help="longest time limit, seconds")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    from scaffolds.local_llm import LocalLLM

    rng = random.Random(args.seed)
    rows = []
    with LocalLLM.start(n_ctx=2048) as llm, tempfile.TemporaryDirectory() as tmp:
        for i in range(args.runs):
            limit = round(rng.uniform(args.min, args.max), 1)
            out = Path(tmp) / f"run-{i}"
            argv = [sys.executable, "-m", "scaffolds.iterative", "--model", llm.model,
                    "--api-base", llm.api_base, "--context-window", "2048",
                    "--task", "demo/tabular-binary", "--time-limit", f"{limit}s",
                    "--out", str(out)]  # fmt: skip
            started = time.monotonic()
            subprocess.run(argv, capture_output=True, check=False, timeout=limit * 3 + 600)
            took = time.monotonic() - started
            summary = json.loads((out / "run.json").read_text())
            # the command's own set-up (imports, kernel start) comes before the agent's clock
            overshoot = float(summary.get("wall_time_s") or 0.0) - limit
            rows.append((limit, summary, took, overshoot))
            print(
                f"run {i:2d}: limit {limit:6.1f}s  agent {summary.get('agent_time_s'):7.1f}s  "
                f"wall {summary.get('wall_time_s'):7.1f}s  command {took:6.1f}s  "
                f"overshoot {overshoot:+6.1f}s  {summary['status']}",
                flush=True,
            )
    worst = max(r[3] for r in rows)
    print(f"largest overshoot of the time limit: {worst:+.1f}s (goal: at most {GOAL_S:.0f}s)")
    return 0 if worst <= GOAL_S else 1


if __name__ == "__main__":
    sys.exit(main())
