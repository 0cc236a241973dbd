"""AIDE's per-step harness overhead, early and late in a long run, and its peak memory.

    .venv/bin/python bench/aide_overhead.py            # 500 steps, about a minute
    .venv/bin/python bench/aide_overhead.py --steps 100 --policy mcts

A replay model answers every step with a trivial script (copy the sample submission, print a
score; every tenth one raises) and a review, so the time of a step is the harness's own: policy,
prompts, journal, submission check, records, plus one clean-namespace kernel call. Reported
per step, as medians around step 10 and around the last step:

- ``harness wall``: the step's wall time minus the kernel call and the task's validator (the
  goal: at most 20 ms; growth is judged on CPU time, which a busy machine does not distort);
- ``validator``: the task's own format check of the submission (for the demo tasks it runs the
  metric, as upstream MLE-bench's does: milliseconds, whatever the harness);
- ``kernel call``: the clean-namespace run of the trivial script (``PythonKernel.run_clean``);
- ``harness CPU``: CPU seconds the harness process spent in the step, validator included; unlike
  wall times it does not move when other work shares the machine;
- peak resident memory of the harness process and of the kernel process;
- with ``--kernels N`` (the lanes of ``--parallel-nodes``), the PSS that N more idle kernels
  add, in all and each (goal: at most 50 MB each; a fresh ipykernel is about 44 MB PSS).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import ClassVar

from aide_tree import Aide, AideConfig, Node
from aide_tree.cassette import operator_reply, review_call, write_cassette
from scaffolds.model import make_model
from scaffolds.runtime import Run, execute, open_run

SAMPLE = 'import shutil\nshutil.copy("data/sample_submission.csv", "submission/submission.csv")\n'
BROKEN = 'raise ValueError("a deliberate bug")\n'
WINDOW = 20
"""Steps on each side of the measured step whose timings make the median."""


class TimedAide(Aide):
    """AIDE that times each step, and the task's validator within it (a variant, by
    subclassing)."""

    timings: ClassVar[list[tuple[float, float, float, float]]] = []
    """Per step: wall time, kernel call, validator call, harness CPU time (seconds)."""

    def __init__(self, run: Run):
        super().__init__(run)
        validate = self.submissions.validate
        self._validating = 0.0

        def timed_validate(path: Path) -> tuple[bool, str]:
            started = time.perf_counter()
            try:
                return validate(path)
            finally:
                self._validating += time.perf_counter() - started

        self.submissions.validate = timed_validate

    def step(self) -> Node:
        self._validating = 0.0
        started, cpu = time.perf_counter(), time.process_time()
        node = super().step()
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
        self.timings.append((wall, node.duration_s, self._validating, cpu))
        return node


def cassette(path: Path, steps: int) -> Path:
    records = []
    for i in range(steps):
        buggy = i % 10 == 9
        code = BROKEN if buggy else SAMPLE + f'print("validation score {0.5 + i * 1e-4:.4f}")\n'
        metric = None if buggy else round(0.5 + (i // 10) * 1e-3, 4)  # a new best every 10 steps
        records += [operator_reply(f"Attempt {i}.", code), review_call(buggy, f"Step {i}.", metric)]
    return write_cassette(path, records)


def peak_rss_mb(pid: int) -> float:
    """VmHWM (peak resident set) of a process, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def pss_mb() -> float:
    """The PSS of every process below this one (the kernels), in MB."""
    import psutil

    total = 0
    for p in psutil.Process().children(recursive=True):
        try:
            total += p.memory_full_info().pss
        except (psutil.Error, AttributeError):
            continue
    return total / 2**20


def idle_kernels_pss_mb(run: Run, count: int) -> float:
    """The PSS that ``count`` more idle kernels in the run's sandbox add (the lanes of
    ``--parallel-nodes``), each having run one trivial cell."""
    from tools import PythonKernel

    before = pss_mb()
    kernels = [PythonKernel(run.sandbox, cwd=run.workspace.root) for _ in range(count)]
    try:
        for kernel in kernels:
            kernel.start()
            kernel.run_clean("print(1)", 30)
        time.sleep(1.0)
        return pss_mb() - before
    finally:
        for kernel in kernels:
            kernel.shutdown()


def around(values: list[float], step: int) -> float:
    lo = max(0, step - 1 - WINDOW // 2)
    return statistics.median(values[lo : lo + WINDOW])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=500, help="steps to run (default 500)")
    parser.add_argument("--task", default="demo/tabular-binary")
    parser.add_argument("--policy", default="greedy", help="search policy (default greedy)")
    parser.add_argument("--kernels", type=int, default=0, help="idle kernels to add and measure")
    args = parser.parse_args()

    import psutil

    root = Path(tempfile.mkdtemp(prefix="aide-bench-"))
    os.chmod(root, 0o755)
    replay = cassette(root / "cassette.jsonl", args.steps)
    config = AideConfig.model_validate(
        {
            "model": f"replay:{replay}",
            "task": args.task,
            "out": root / "run",
            "steps": args.steps,
            "time_limit": 24 * 3600,
            "policy": args.policy,
        }
    )
    run = open_run(config, "aide", model=make_model(config.model_settings()))
    kernel_peak: list[float] = []
    added_pss: list[float] = []

    def scaffold(run: Run) -> str:
        try:
            return TimedAide(run).search()
        finally:
            kernels = psutil.Process().children(recursive=True)
            kernel_peak.extend(peak_rss_mb(p.pid) for p in kernels if p.is_running())
            if args.kernels:
                added_pss.append(idle_kernels_pss_mb(run, args.kernels))

    started = time.perf_counter()
    status, grade = execute(run, scaffold)
    wall = time.perf_counter() - started
    timings = TimedAide.timings
    harness = [(total - kernel - check) * 1000 for total, kernel, check, _ in timings]
    kernel = [t[1] * 1000 for t in timings]
    check = [t[2] * 1000 for t in timings]
    cpu = [t[3] * 1000 for t in timings]
    last = len(timings)
    early, late = around(harness, 10), around(harness, last)
    harness_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    print(
        f"AIDE harness overhead, {args.policy} policy, {last} steps on {args.task} "
        f"({status}, {wall:.1f} s in all)"
    )
    print(f"  medians of {WINDOW} steps:  harness wall  validator  kernel call  harness CPU")
    for step in (10, last):
        print(
            f"  around step {step:>4}: {around(harness, step):9.2f} ms {around(check, step):7.2f} ms"
            f" {around(kernel, step):8.2f} ms {around(cpu, step):8.2f} ms"
        )
    growth = around(cpu, last) / around(cpu, 10)
    print(
        f"  growth from step 10 to {last}: {late / early:.2f}x wall, {growth:.2f}x CPU "
        f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)"
    )
    verdict = "met" if max(early, late) <= 20 and growth <= 1.5 else "NOT met"
    print(f"  goal (harness <= 20 ms median, <= 1.5x growth in CPU time): {verdict}")
    print(
        f"  peak RSS: harness {harness_peak:.0f} MB, kernel {max(kernel_peak, default=0):.0f} MB, "
        f"together {harness_peak + max(kernel_peak, default=0):.0f} MB"
    )
    if added_pss:
        each = added_pss[0] / args.kernels
        verdict = "met" if each <= 50 else "NOT met"
        print(
            f"  {args.kernels} more idle kernels: {added_pss[0]:.0f} MB PSS in all, "
            f"{each:.1f} MB each (goal <= 50 MB each: {verdict})"
        )
    print(
        f"  journal: {(root / 'run' / 'journal.jsonl').stat().st_size / 1e6:.2f} MB; "
        f"final submission valid: {grade.get('valid_submission')}"
    )
    shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
