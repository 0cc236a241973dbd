"""Tool latency: a warm Jupyter kernel against a fresh Python process per step.

    .venv/bin/python bench/tool_latency.py              # defaults below
    .venv/bin/python bench/tool_latency.py --fresh 10   # more fresh-process samples

Measured side by side in one run, through the same sandbox (as the agent user when run as
root): the median round trip of a trivial ``python`` tool call, and the median cost of one ML
step (import pandas and scikit-learn, fit a tiny model) in the warm kernel against a fresh
interpreter per step, the way a process-per-step interpreter works. Goals: trivial round trip
<= 5 ms; warm step >= 100x faster than a fresh process.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tools import PythonKernel, Sandbox, Toolset, Workspace

TRIVIAL_CALLS = 200  # trivial python calls timed
WARM_STEPS = 30  # ML steps timed in the warm kernel
FRESH_STEPS = 5  # ML steps timed in a fresh process each (each takes seconds)
BLAS_THREADS = 1  # a tiny model: keep BLAS thread start-up out of what is measured
TRIVIAL_GOAL_MS = 5.0
RATIO_GOAL = 100.0
STEP = """\
import pandas as pd
from sklearn.linear_model import LogisticRegression
X = pd.DataFrame({"a": [0, 1, 2, 3, 4, 5, 6, 7], "b": [1, 0, 1, 0, 1, 0, 1, 0]})
y = [0, 0, 0, 0, 1, 1, 1, 1]
print(LogisticRegression().fit(X, y).score(X, y))
"""


def median_s(action: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def check(ok: bool) -> str:
    return "meets goal" if ok else "MISSES goal"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trivial", type=int, default=TRIVIAL_CALLS)
    parser.add_argument("--warm", type=int, default=WARM_STEPS)
    parser.add_argument("--fresh", type=int, default=FRESH_STEPS)
    parser.add_argument(
        "--blas-threads",
        type=int,
        default=BLAS_THREADS,
        help="BLAS/OpenMP threads for agent code on both sides; 0 leaves the harness's setting",
    )
    args = parser.parse_args()
    threads = str(args.blas_threads)
    names = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
    extra_env = {name: threads for name in names} if args.blas_threads > 0 else {}

    base = Path(tempfile.mkdtemp(prefix="tool-latency-"))
    os.chmod(base, 0o755)  # the agent user must be able to enter it
    try:
        workspace = Workspace.create(base / "ws", None)
        sandbox = Sandbox.create(workspace, extra_env=extra_env)
        print(sandbox.note)
        print(f"BLAS threads for agent code: {threads if extra_env else 'as the harness has it'}")
        with PythonKernel(sandbox, workspace.root) as kernel:
            toolset = Toolset.standard(
                workspace, sandbox, kernel, lambda p: (True, ""), "submission/submission.csv",
                time_left=lambda: 3600.0,
            )  # fmt: skip

            def fresh_step() -> None:
                subprocess.run(
                    sandbox.popen_args([sandbox.agent_python, "-c", STEP]),
                    env=sandbox.env,
                    cwd=workspace.root,
                    check=True,
                    capture_output=True,
                )

            for _ in range(20):
                toolset.call("python", '{"code": "1"}')
            trivial_call = median_s(lambda: toolset.call("python", '{"code": "1"}'), args.trivial)
            trivial_exec = median_s(lambda: kernel.execute("1", 60), args.trivial)
            kernel.execute(STEP, 600)
            warm = median_s(lambda: kernel.execute(STEP, 600), args.warm)
            clean = median_s(lambda: kernel.run_clean(STEP, 600), args.warm)
            fresh_step()
            fresh = median_s(fresh_step, args.fresh)
    finally:
        shutil.rmtree(base, ignore_errors=True)

    ratio = fresh / warm
    print(f"trivial python call, Toolset.call       median {trivial_call * 1e3:8.2f} ms  "
          f"({check(trivial_call * 1e3 <= TRIVIAL_GOAL_MS)}: <= {TRIVIAL_GOAL_MS:g} ms)")  # fmt: skip
    print(f"trivial python call, kernel.execute     median {trivial_exec * 1e3:8.2f} ms")
    print(f"ML step, warm kernel (execute)          median {warm * 1e3:8.2f} ms  (n={args.warm})")
    print(f"ML step, warm kernel (run_clean)        median {clean * 1e3:8.2f} ms  (n={args.warm})")
    print(f"ML step, fresh python process per step  median {fresh * 1e3:8.2f} ms  (n={args.fresh})")
    print(f"fresh process / warm kernel             ratio  {ratio:8.1f} x   "
          f"({check(ratio >= RATIO_GOAL)}: >= {RATIO_GOAL:g} x)")  # fmt: skip
    print(f"fresh process / warm run_clean          ratio  {fresh / clean:8.1f} x")


if __name__ == "__main__":
    main()
