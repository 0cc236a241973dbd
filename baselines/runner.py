"""Run one task's baseline on its public data, then grade it: ``submission.csv``, ``grade.json``.

The script sees only ``task.public_dir`` and the output path; the answers stay with the task,
which grades the file afterwards exactly as it grades an agent's. A task whose submission is a
folder (PaperBench) gets ``submission/`` instead of ``submission.csv``.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from baselines.kit import call_main
from baselines.registry import baseline_module
from scaffolds.protocols import Task

FORMAT_VERSION = 1


@dataclass
class BaselineRun:
    """What one baseline run produced; saved as ``baseline.json`` next to the submission."""

    task: str
    metric: str
    """Name of the local validation metric the script reports."""
    val_score: float
    """The script's local validation score (cross-validation or hold-out on train data)."""
    test_score: float | None
    """The grader's score of the submission; null when the submission is invalid."""
    seconds: float
    smoke: bool
    submission_path: str
    grade_path: str
    device: str | None = None
    """``--device`` as given (null: the script's choice, the GPU when there is one)."""
    pretrained: str | None = None
    """``--pretrained`` as given: null for the script's hub weights, ``none`` for random ones."""
    peak_gpu_mib: float | None = None
    """Peak GPU memory torch allocated in this process; null when no GPU was used."""
    peak_rss_mib: float | None = None
    """Peak resident memory of this process (``VmHWM``), null where there is no ``/proc``:
    the baseline's own when it ran alone (``python -m baselines run``)."""
    format_version: int = FORMAT_VERSION

    @property
    def grade(self) -> dict[str, Any]:
        report: dict[str, Any] = json.loads(Path(self.grade_path).read_text(encoding="utf-8"))
        return report


def run_baseline(
    task: Task,
    out_dir: Path,
    *,
    smoke: bool = False,
    time_budget_s: float | None = None,
    threads: int | None = None,
    device: str | None = None,
    pretrained: str | None = None,
) -> BaselineRun:
    """Train ``task``'s baseline, write ``out_dir/{submission.csv,grade.json,baseline.json}``.

    ``time_budget_s``, ``threads``, ``device`` and ``pretrained`` default to the script's own
    (the last two matter only to scripts that train networks). Raises ``KeyError`` when the
    task has no baseline; whatever the script raises propagates.
    """
    module = baseline_module(task.id)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    folder = task.submission_is_folder
    submission = out_dir / ("submission" if folder else "submission.csv")
    start = time.monotonic()
    val_score = call_main(
        module,
        task.public_dir,
        submission,
        smoke=smoke,
        time_budget_s=time_budget_s,
        threads=threads,
        device=device,
        pretrained=pretrained,
    )
    seconds = time.monotonic() - start
    report = task.grade(submission)
    grade_path = out_dir / "grade.json"
    grade_path.write_text(json.dumps(report, indent=2), encoding="utf-8")
    run = BaselineRun(
        task=task.id,
        metric=module.METRIC,
        val_score=val_score,
        test_score=report.get("score"),
        seconds=round(seconds, 2),
        smoke=smoke,
        submission_path=str(submission),
        grade_path=str(grade_path),
        device=device,
        pretrained=pretrained,
        peak_gpu_mib=_peak_gpu_mib(),
        peak_rss_mib=peak_rss_mib(),
    )
    (out_dir / "baseline.json").write_text(json.dumps(asdict(run), indent=2), encoding="utf-8")
    return run


def _peak_gpu_mib() -> float | None:
    """What torch allocated at most on the GPU in this process (None when torch or a GPU was
    never used: importing torch only to ask would cost a second per CPU baseline)."""
    import sys

    if "torch" not in sys.modules:
        return None
    from baselines.torchkit import peak_gpu_mib

    peak = peak_gpu_mib()
    return None if peak is None else round(peak, 1)


def peak_rss_mib() -> float | None:
    """This process's peak resident memory from ``/proc/self/status`` (Linux), in MiB.

    Not the parent's ``ru_maxrss`` of its child: that starts from the parent's own high-water
    mark (a parent holding 800 MiB saw 811 MiB for a child whose VmHWM was 111 MiB)."""
    try:
        status = Path("/proc/self/status").read_text(encoding="ascii")
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)  # kB
    return None
