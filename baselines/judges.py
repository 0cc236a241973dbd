"""Judging one graded submission against one expectation: pass, fail or skip, with evidence.

Each judge reads a grade report (``CompetitionTask.grade``'s dict) and never guesses: without a
leaderboard, a medal or median expectation is skipped with the reason, never passed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from bench_adapters import CompetitionTask

Status = Literal["pass", "fail", "skip"]
GRADER_PREAMBLE = "has resulted in the following error message:"
"""Upstream's ``validate_submission`` message ends with this, then the grader's error."""


@dataclass
class Outcome:
    """One expectation about one submission of one task."""

    submission: str
    """``gold``, ``sample``, ``baseline``, ``missing-column`` or ``wrong-row-count``."""
    expectation: str
    status: Status
    evidence: str


def _fmt(value: float | None) -> str:
    return "none" if value is None else f"{value:.6g}"


def _direction(task: CompetitionTask) -> str:
    return "lower is better" if task.is_lower_better else "higher is better"


def _no_leaderboard(task: CompetitionTask) -> str:
    return f"no leaderboard ({task.no_leaderboard_reason or 'none found'})"


def judge_valid(task: CompetitionTask, name: str, report: dict[str, Any], path: Path) -> Outcome:
    if report["valid_submission"]:
        return Outcome(name, "valid", "pass", f"score {_fmt(report['score'])}")
    _, message = task.validate(path)
    return Outcome(name, "valid", "fail", f"graded invalid: {one_line(message)}")


def judge_gold(task: CompetitionTask, report: dict[str, Any]) -> Outcome:
    expectation = "gold medal"
    if report["gold_medal"] is None:
        return Outcome("gold", expectation, "skip", _no_leaderboard(task))
    op = "<=" if task.is_lower_better else ">="
    evidence = f"score {_fmt(report['score'])}, gold needs {op} {_fmt(report['gold_threshold'])}"
    return Outcome("gold", expectation, "pass" if report["gold_medal"] else "fail", evidence)


def judge_median(
    task: CompetitionTask, name: str, report: dict[str, Any], *, above: bool
) -> Outcome:
    expectation = "above median" if above else "not above median"
    if report["above_median"] is None:
        return Outcome(name, expectation, "skip", _no_leaderboard(task))
    held = report["above_median"] == above
    evidence = (
        f"score {_fmt(report['score'])} vs median {_fmt(report['median_threshold'])} "
        f"({_direction(task)})"
    )
    return Outcome(name, expectation, "pass" if held else "fail", evidence)


def judge_beats_sample(
    task: CompetitionTask,
    report: dict[str, Any],
    sample_score: float | None,
    note: str | None = None,
) -> Outcome:
    """``note``: why upstream's metric gives the sample what it gives (a NaN is then no fault)."""
    expectation = "better than the sample"
    score = report["score"]
    if score is None or sample_score is None:
        which = "baseline" if score is None else "sample"
        return Outcome("baseline", expectation, "fail", f"the {which} submission has no score")
    if math.isnan(sample_score) and note:
        return Outcome(
            "baseline", expectation, "skip", f"the sample scores nan, which nothing beats ({note})"
        )
    beats = score < sample_score if task.is_lower_better else score > sample_score
    evidence = f"score {_fmt(score)} vs sample {_fmt(sample_score)} ({_direction(task)})"
    return Outcome("baseline", expectation, "pass" if beats else "fail", evidence)


def judge_accepted(task: CompetitionTask, name: str, path: Path, note: str) -> Outcome:
    """A corrupted copy that upstream scores: valid here too, with upstream's reason."""
    expectation = "valid, as upstream"
    report = task.grade(path)
    if not report["valid_submission"]:
        _, message = task.validate(path)
        return Outcome(name, expectation, "fail", f"graded invalid: {one_line(message)} ({note})")
    return Outcome(name, expectation, "pass", f"score {_fmt(report['score'])} ({note})")


def judge_invalid(task: CompetitionTask, name: str, path: Path) -> Outcome:
    expectation = "invalid, with a message"
    ok, message = task.validate(path)
    report = task.grade(path)
    if ok:
        return Outcome(name, expectation, "fail", f"validate accepted it: {one_line(message)}")
    if report["valid_submission"]:
        return Outcome(name, expectation, "fail", f"grade scored it {_fmt(report['score'])}")
    if not message.strip():
        return Outcome(name, expectation, "fail", "validate rejected it with an empty message")
    return Outcome(name, expectation, "pass", f"rejected: {one_line(message)}")


def one_line(message: str, limit: int = 200) -> str:
    """A (possibly multi-line) message on one line, cut to ``limit`` characters, without the
    preamble upstream puts before the grader's own words."""
    message = message.split(GRADER_PREAMBLE, 1)[-1]
    text = " ".join(line.strip() for line in message.strip().splitlines() if line.strip())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def guarded(name: str, expectation: str, judge: Callable[[], list[Outcome]]) -> list[Outcome]:
    """Run ``judge``; an exception (a grader bug: graders never raise) fails the expectation."""
    try:
        return judge()
    except Exception as e:  # any crash is evidence against the task
        return [Outcome(name, expectation, "fail", one_line(f"{type(e).__name__}: {e}"))]
