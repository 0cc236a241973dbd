"""Upstream's grading rules, on a task with a tiny grader of our own."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from bench_adapters import (
    REPORT_KEYS,
    SUMMARY_KEYS,
    CompetitionTask,
    Leaderboard,
    aggregate_reports,
)
from bench_adapters.mlebench.graders import GraderSpec, InvalidSubmissionError


def _task(tmp_path: Path, grade: Any, leaderboard: Leaderboard | None) -> CompetitionTask:
    prepared = tmp_path / "toy" / "prepared"
    (prepared / "public").mkdir(parents=True)
    (prepared / "private").mkdir()
    pd.DataFrame({"id": [1, 2], "y": [0.0, 1.0]}).to_csv(
        prepared / "private" / "answers.csv", index=False
    )
    pd.DataFrame({"id": [1, 2], "y": [0.5, 0.5]}).to_csv(
        prepared / "public" / "sample.csv", index=False
    )
    spec = GraderSpec("toy", "answers.csv", "public/sample.csv", grade)
    return CompetitionTask(
        id="demo/toy",
        benchmark="demo",
        competition_id="toy",
        name="Toy",
        prepared_dir=prepared,
        grader_spec=spec,
        description="A toy.",
        leaderboard=leaderboard,
        prompt_set="demo",
        no_leaderboard_reason="none for the toy",
    )


BOARD = Leaderboard(tuple(float(x) for x in np.linspace(0.9, 0.1, 100)))  # higher is better


@pytest.mark.parametrize(
    ("returned", "expected"),
    [
        (0.1234567, 0.12346),
        (np.float64(0.9999951), 1.0),
        (1, 1),
        (np.float64(0.824845), round(np.float64(0.824845), 5)),
    ],
)
def test_scores_are_rounded_to_5_places_like_upstream(
    tmp_path: Path, returned: Any, expected: float
) -> None:
    task = _task(tmp_path, lambda s, a: returned, BOARD)
    assert task.grade(task.sample_submission_path)["score"] == expected


def test_any_exception_means_no_score_and_validate_quotes_it(tmp_path: Path) -> None:
    def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
        if "y" in submission and submission["y"].iloc[0] == 0.5:
            raise InvalidSubmissionError("Submission must have the same length as the answers.")
        raise KeyError("boom")

    task = _task(tmp_path, grade, BOARD)
    ok, message = task.validate(task.sample_submission_path)
    assert not ok
    assert message == (
        "Submission invalid! The attempt to grade the submission has resulted in the following "
        "error message:\nSubmission must have the same length as the answers."
    )
    report = task.grade(task.sample_submission_path)
    assert report["score"] is None and report["valid_submission"] is False
    assert report["submission_exists"] is True and report["normalized_reward"] == 0.0
    other = tmp_path / "other.csv"
    other.write_text("id,z\n1,2\n")
    assert task.grade(other)["score"] is None


def test_path_checks_use_upstreams_messages(tmp_path: Path) -> None:
    task = _task(tmp_path, lambda s, a: 0.5, BOARD)
    missing = tmp_path / "missing.csv"
    assert task.validate(missing) == (
        False,
        f"Submission invalid! Submission file {missing} does not exist.",
    )
    text = tmp_path / "sub.txt"
    text.write_text("id,y\n1,0\n")
    assert task.validate(text) == (False, "Submission invalid! Submission file must be a CSV file.")
    upper = tmp_path / "SUB.CSV"
    upper.write_text("id,y\n1,0\n")
    assert task.validate(upper) == (True, "Submission is valid.")
    assert task.grade(text)["submission_exists"] is False


def test_a_nan_score_is_valid_but_wins_nothing(tmp_path: Path) -> None:
    task = _task(tmp_path, lambda s, a: float("nan"), BOARD)
    assert task.validate(task.sample_submission_path) == (True, "Submission is valid.")
    report = task.grade(task.sample_submission_path)
    assert report["valid_submission"] is True and math.isnan(report["score"])
    assert not report["any_medal"] and not report["above_median"]
    assert report["normalized_reward"] == 0.0


def test_the_grader_gets_a_fresh_copy_of_the_answers(tmp_path: Path) -> None:
    def vandal(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
        value = float(answers["y"].sum())
        answers["y"] = 100.0  # a grader that mutates its input must not poison the next call
        return value

    task = _task(tmp_path, vandal, BOARD)
    assert task.grade(task.sample_submission_path)["score"] == 1.0
    assert task.grade(task.sample_submission_path)["score"] == 1.0


def test_report_without_leaderboard_and_summary(tmp_path: Path) -> None:
    task = _task(tmp_path, lambda s, a: 0.7, None)
    report = task.grade(task.sample_submission_path)
    assert tuple(report) == REPORT_KEYS
    assert report["score"] == 0.7 and report["valid_submission"] is True
    nulls = (*REPORT_KEYS[2:11], "normalized_reward", "leaderboard_rank_pct")
    assert all(report[k] is None for k in nulls)
    medalled = _task(tmp_path / "b", lambda s, a: 0.95, BOARD).grade(task.sample_submission_path)
    assert medalled["gold_medal"] and medalled["leaderboard_rank_pct"] == 100.0
    summary = aggregate_reports([report, medalled])
    assert tuple(summary) == SUMMARY_KEYS
    assert (summary["total_runs"], summary["total_valid_submissions"], summary["total_medals"]) == (
        2,
        2,
        1,
    )
    assert summary["total_above_median"] == 1
