"""Tool latency: a warm Jupyter kernel against a fresh Python process per step, under every
sandbox this machine offers, side by side in one run.

    .venv/bin/python bench/tool_latency.py              # defaults below
    .venv/bin/python bench/tool_latency.py --fresh 10   # more fresh-process samples

Each sandbox gets its own workspace and kernel: the namespace sandbox with the network on and
off (kernel over ipc sockets), and the user-based one (kernel over localhost TCP); without
root, only the unisolated one. Samples alternate between the sandboxes, so that a busy
machine slows every one alike. Reported per sandbox: the median round trip of a trivial
``python`` tool call and of a trivial ``bash`` call, and the median cost of one ML step
(import pandas and scikit-learn, fit a tiny model) in the warm kernel against a fresh
interpreter per step. Goals: trivial python round trip <= 5 ms; the namespace sandbox adds
<= 1 ms to it, and to a trivial bash call and ``view`` call too; warm step >= 100x
faster than a fresh process. The verdict names each call that meets or misses its goal.

Then timeouts: a ``bash`` ``sleep 30`` and a ``python`` ``time.sleep(30)`` under a 1.5 s tool
limit, per sandbox; reported is how long past the limit each call takes to come back (the
process group killed, or the cell interrupted, and the note written). Goal: <= 2.5 s past it.
The tests check only that such a call is cut; how promptly, is measured here.
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
from contextlib import ExitStack
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from tools import PythonKernel, Sandbox, Toolset, Workspace
from tools.namespace import bwrap_path, namespace_problem

TRIVIAL_CALLS = 200  # trivial python calls timed per sandbox
BASH_CALLS = 30  # trivial bash calls timed per sandbox
WARM_STEPS = 30  # ML steps timed in the warm kernel
FRESH_STEPS = 5  # ML steps timed in a fresh process each (each takes seconds)
BLAS_THREADS = 1  # a tiny model: keep BLAS thread start-up out of what is measured
TRIVIAL_GOAL_MS = 5.0
ADDED_GOAL_MS = 1.0
RATIO_GOAL = 100.0
TIMEOUT_S = 1.5  # the tool limit of the timeout rows
TIMEOUT_CALLS = 3  # calls over their limit timed per sandbox and tool
TIMEOUT_GOAL_S = 2.5  # how long past its limit a cut call may take to come back
OVER_LIMIT = {
    "bash": '{"command": "sleep 30"}',
    "python": '{"code": "import time; time.sleep(30)"}',
}
ADDED_CALLS = {"call": "python", "bash": "bash", "view": "view"}
"""The calls whose cost the namespace sandbox adds to, against the user-based one."""
STEP = """\
import pandas as pd
from sklearn.linear_model import LogisticRegression
X = pd.DataFrame({"a": [0, 1, 2, 3, 4, 5, 6, 7], "b": [1, 0, 1, 0, 1, 0, 1, 0]})
y = [0, 0, 0, 0, 1, 1, 1, 1]
print(LogisticRegression().fit(X, y).score(X, y))
"""


@dataclass
class Subject:
    """One sandbox under test, with its samples (seconds)."""

    name: str
    sandbox: Sandbox
    kernel: PythonKernel
    toolset: Toolset
    samples: dict[str, list[float]] = field(default_factory=dict)

    def time(self, what: str, action: Callable[[], object]) -> None:
        started = time.perf_counter()
        action()
        self.samples.setdefault(what, []).append(time.perf_counter() - started)

    def ms(self, what: str) -> float:
        return statistics.median(self.samples[what]) * 1e3

    def fresh_step(self) -> None:
        box = self.sandbox
        subprocess.run(
            box.popen_args([box.agent_python, "-c", STEP]),
            env=box.env,
            cwd=box.workspace.root,
            check=True,
            capture_output=True,
        )


def check(ok: bool) -> str:
    return "meets goal" if ok else "MISSES goal"


def configurations() -> list[tuple[str, dict[str, str]]]:
    """(label, Sandbox.create options) for every sandbox this machine can run."""
    if os.geteuid() != 0:
        return [("no isolation (not root)", {})]
    user = [("user-based", {"backend": "user"})]
    problem = namespace_problem(bwrap_path())
    if problem is not None:
        print(f"namespace sandbox unavailable ({problem}): measuring the user-based one only")
        return user
    namespace = [
        ("namespace, network on", {"backend": "namespace", "network": "on"}),
        ("namespace, network off", {"backend": "namespace", "network": "off"}),
    ]
    return namespace + user


def open_subject(
    stack: ExitStack, base: Path, name: str, options: dict[str, str], env: dict[str, str]
) -> Subject:
    workspace = Workspace.create(base / name.replace(" ", "_").replace(",", ""), None)
    sandbox = stack.enter_context(Sandbox.create(workspace, extra_env=env, **options))  # type: ignore[arg-type]
    kernel = stack.enter_context(PythonKernel(sandbox, workspace.root))
    toolset = Toolset.standard(
        workspace, sandbox, kernel, lambda p: (True, ""), "submission/submission.csv",
        time_left=lambda: 3600.0,
    )  # fmt: skip
    print(f"{name}: {sandbox.note} (kernel over {sandbox.kernel_transport})")
    return Subject(name, sandbox, kernel, toolset)


ACTIONS: dict[str, Callable[[Subject], object]] = {
    "call": lambda s: s.toolset.call("python", '{"code": "1"}'),
    "execute": lambda s: s.kernel.execute("1", 60),
    "bash": lambda s: s.toolset.call("bash", '{"command": "true"}'),
    "view": lambda s: s.toolset.call("view", '{"path": "submission"}'),
    "warm": lambda s: s.kernel.execute(STEP, 600),
    "clean": lambda s: s.kernel.run_clean(STEP, 600),
    "fresh": Subject.fresh_step,
}


def measure(subjects: list[Subject], counts: dict[str, int]) -> None:
    """Time every action ``counts[action]`` times per sandbox, one sample of each sandbox in
    turn, so that load from elsewhere on the machine falls on all of them alike."""
    for s in subjects:  # warm up: first calls, imports
        for _ in range(20):
            ACTIONS["call"](s)
        for what in ("bash", "view", "warm", "clean", "fresh"):
            ACTIONS[what](s)
    for what, action in ACTIONS.items():
        for _ in range(counts[what]):
            for s in subjects:
                s.time(what, partial(action, s))


def overshoot(s: Subject, tool: str, repeats: int) -> float:
    """Median seconds past ``TIMEOUT_S`` that a call of ``tool`` over its limit comes back."""
    tools = Toolset.standard(
        s.sandbox.workspace, s.sandbox, s.kernel, lambda p: (True, ""),
        "submission/submission.csv", time_left=lambda: 3600.0, tool_timeout_s=TIMEOUT_S,
    )  # fmt: skip
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        observation = tools.call(tool, OVER_LIMIT[tool])
        samples.append(time.perf_counter() - started - TIMEOUT_S)
        assert "Timed out after 1.5 s" in observation.text, observation.text
    return statistics.median(samples)


def report_timeouts(subjects: list[Subject], repeats: int) -> None:
    for s in subjects:
        past = {tool: overshoot(s, tool, repeats) for tool in OVER_LIMIT}
        ok = max(past.values()) <= TIMEOUT_GOAL_S
        print(f"{s.name}: a call over its {TIMEOUT_S:g} s limit returns "
              + ", ".join(f"{tool} {v:+.2f} s" for tool, v in past.items())
              + f" past it: {check(ok)} (<= {TIMEOUT_GOAL_S:g} s)")  # fmt: skip


def report(subjects: list[Subject]) -> None:
    rows = [
        ("trivial python call, Toolset.call   ", "call"),
        ("trivial python call, kernel.execute ", "execute"),
        ("trivial bash call, Toolset.call     ", "bash"),
        ("trivial view call, Toolset.call     ", "view"),
        ("ML step, warm kernel (execute)      ", "warm"),
        ("ML step, warm kernel (run_clean)    ", "clean"),
        ("ML step, fresh python process       ", "fresh"),
    ]
    width = max(len(s.name) for s in subjects) + 2
    print(" " * 37 + "".join(f"{s.name:>{width}}" for s in subjects) + "   (median ms)")
    for label, key in rows:
        print(label + "".join(f"{s.ms(key):>{width}.2f}" for s in subjects))
    print("fresh process / warm kernel   ratio" + "".join(
        f"{s.ms('fresh') / s.ms('warm'):>{width}.1f}" for s in subjects
    ) + f"   (goal >= {RATIO_GOAL:g} x)")  # fmt: skip
    for s in subjects:
        ok = s.ms("call") <= TRIVIAL_GOAL_MS and s.ms("fresh") / s.ms("warm") >= RATIO_GOAL
        print(f"{s.name}: trivial call {s.ms('call'):.2f} ms, {check(ok)} "
              f"(<= {TRIVIAL_GOAL_MS:g} ms, >= {RATIO_GOAL:g} x)")  # fmt: skip
    user = next((s for s in subjects if s.sandbox.backend == "user"), None)
    if user is None:
        return
    verdicts: dict[bool, list[str]] = {True: [], False: []}
    for s in subjects:
        if s.sandbox.backend != "namespace":
            continue
        for key, call in ADDED_CALLS.items():
            added = s.ms(key) - user.ms(key)
            ok = added <= ADDED_GOAL_MS
            verdicts[ok].append(f"{call} ({s.name})")
            print(f"{s.name} adds {added:+.2f} ms to a trivial {call} call: {check(ok)} "
                  f"(<= {ADDED_GOAL_MS:g} ms added)")  # fmt: skip
    for ok, calls in verdicts.items():
        if calls:
            verb = "meet" if ok else "MISS"
            print(f"{verb} the {ADDED_GOAL_MS:g} ms added-cost goal: {', '.join(calls)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trivial", type=int, default=TRIVIAL_CALLS)
    parser.add_argument("--bash", type=int, default=BASH_CALLS, help="bash and view calls")
    parser.add_argument("--warm", type=int, default=WARM_STEPS)
    parser.add_argument("--fresh", type=int, default=FRESH_STEPS)
    parser.add_argument("--timeouts", type=int, default=TIMEOUT_CALLS, help="calls over a limit")
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
    print(f"BLAS threads for agent code: {threads if extra_env else 'as the harness has it'}")
    counts = {"call": args.trivial, "execute": args.trivial, "bash": args.bash, "view": args.bash}
    counts |= {"warm": args.warm, "clean": args.warm, "fresh": args.fresh}

    base = Path(tempfile.mkdtemp(prefix="tool-latency-"))
    os.chmod(base, 0o755)  # the agent user must be able to enter it
    try:
        with ExitStack() as stack:
            subjects = [
                open_subject(stack, base, name, options, extra_env)
                for name, options in configurations()
            ]
            measure(subjects, counts)
            report(subjects)
            report_timeouts(subjects, args.timeouts)
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
