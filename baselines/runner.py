"""Run one task's baseline on its public data, then grade it: ``submission.csv``, ``grade.json``.

The script sees only ``task.public_dir`` and the output path; the answers stay with the task,
which grades the file afterwards exactly as it grades an agent's.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from baselines.kit import call_main
from baselines.registry import baseline_module
from bench_adapters import CompetitionTask

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
    format_version: int = FORMAT_VERSION

    @property
    def grade(self) -> dict[str, Any]:
        report: dict[str, Any] = json.loads(Path(self.grade_path).read_text(encoding="utf-8"))
        return report


def run_baseline(
    task: CompetitionTask,
    out_dir: Path,
    *,
    smoke: bool = False,
    time_budget_s: float | None = None,
    threads: int | None = None,
) -> BaselineRun:
    """Train ``task``'s baseline, write ``out_dir/{submission.csv,grade.json,baseline.json}``.

    ``time_budget_s`` and ``threads`` default to the script's own. Raises ``KeyError`` when the
    task has no baseline; whatever the script raises propagates.
    """
    module = baseline_module(task.id)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    submission = out_dir / "submission.csv"
    start = time.monotonic()
    val_score = call_main(
        module,
        task.public_dir,
        submission,
        smoke=smoke,
        time_budget_s=time_budget_s,
        threads=threads,
    )
    seconds = time.monotonic() - start
    report = task.grade(submission)
    grade_path = out_dir / "grade.json"
    grade_path.write_text(json.dumps(report, indent=2), encoding="utf-8")
    run = BaselineRun(
        task=task.id,
        metric=module.METRIC,
        val_score=val_score,
        test_score=report["score"],
        seconds=round(seconds, 2),
        smoke=smoke,
        submission_path=str(submission),
        grade_path=str(grade_path),
    )
    (out_dir / "baseline.json").write_text(json.dumps(asdict(run), indent=2), encoding="utf-8")
    return run
