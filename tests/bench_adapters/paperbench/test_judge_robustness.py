"""Bad judge output never crashes grading: it scores 0 with ``valid_score`` false; the cost cap
stops asking; a missing submission or paper is handled in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench_adapters.paperbench.grading import GradingOptions, grade_paper
from bench_adapters.paperbench.rubric import RubricError
from scaffolds.replay import ScriptedModel
from tests.bench_adapters.paperbench.judge_helpers import (
    CHANGED,
    REPRODUCE_LOG,
    SMALL_RUBRIC,
    SUBMISSION,
    Recorder,
    leaves_of,
    write_paper,
    write_tree,
)

REPLIES = {
    "Adam with learning rate 0.001 is implemented.": "{not json",
    "The dataset is downloaded.": '{"expectations": "a", "reality": "b", "score": 7}',
    "Training was run with Adam.": '{"expectations": "a", "reality": "b"}',
    "The test error is below 0.05, as in Table 1.": 1,
}


@pytest.fixture
def case(tmp_path: Path) -> tuple[Path, Path]:
    return write_paper(tmp_path / "paper", SMALL_RUBRIC), write_tree(tmp_path / "sub", SUBMISSION)


def test_malformed_verdicts_score_zero_and_are_marked_invalid(case: tuple[Path, Path]) -> None:
    paper, submission = case
    judge = Recorder(grade=REPLIES.__getitem__)
    report = grade_paper(paper, submission, REPRODUCE_LOG, CHANGED, GradingOptions(), judge.model)
    leaves = leaves_of(report)
    for leaf_id in ("cd-adam", "cd-data", "ce-train"):
        assert leaves[leaf_id]["score"] == 0.0 and leaves[leaf_id]["valid_score"] is False
        assert leaves[leaf_id]["explanation"].startswith("No valid verdict: malformed verdict")
    assert "score" in leaves["cd-data"]["judge_metadata"]["error"]
    assert "reality" not in leaves["ce-train"]["judge_metadata"]["error"]
    assert leaves["ra-table"]["score"] == 1.0 and leaves["ra-table"]["valid_score"]
    assert len(judge.gradings) == 3 * 2 + 1  # each bad answer was asked once more
    assert report["graded"] and report["score"] == 1 / 3 * 0.5
    assert report["judge"]["leaves_invalid"] == 3 and report["leaves"]["invalid"] == 3
    assert report["graded_tree"]["valid_score"] is False


def test_a_failing_model_is_an_invalid_verdict_per_leaf_and_no_score(
    case: tuple[Path, Path],
) -> None:
    paper, submission = case
    dead = ScriptedModel(lambda messages, tools: None, name="dead")  # every call raises
    report = grade_paper(paper, submission, REPRODUCE_LOG, CHANGED, GradingOptions(), dead)
    assert report["score"] is None and report["normalized_reward"] is None
    assert report["judge"]["leaves_invalid"] == 4 and "4 of 4 leaves" in report["judge_error"]
    assert all("model error" in leaf["explanation"] for leaf in leaves_of(report).values())
    judge = Recorder(grade=REPLIES.__getitem__)  # malformed verdicts are judgements: a score
    report = grade_paper(paper, submission, REPRODUCE_LOG, CHANGED, GradingOptions(), judge.model)
    assert report["judge_error"] is None and report["score"] == 1 / 3 * 0.5


def test_the_cost_cap_stops_new_questions(case: tuple[Path, Path]) -> None:
    paper, submission = case
    judge = Recorder()
    options = GradingOptions(max_judge_cost=0.0025, workers=1)
    report = grade_paper(paper, submission, REPRODUCE_LOG, CHANGED, options, judge.model)
    assert len(judge.gradings) == 3  # 0.001 each: the fourth is never sent
    assert report["judge"]["leaves_not_asked_over_cost"] == 1
    assert report["judge"]["cost_usd"] == pytest.approx(0.003)
    (unasked,) = [leaf for leaf in leaves_of(report).values() if not leaf["valid_score"]]
    assert "cost limit of $0.0025" in unasked["explanation"] and unasked["score"] == 0.0


def test_a_missing_submission_scores_zero_without_asking(
    case: tuple[Path, Path], tmp_path: Path
) -> None:
    paper, _ = case
    judge = Recorder()
    report = grade_paper(paper, tmp_path / "nothing", None, None, GradingOptions(), judge.model)
    assert not judge.gradings and report["score"] == 0.0 and report["valid_submission"] is False
    assert report["graded"] is True and report["judge"]["calls"] == 0


def test_a_submission_without_reproduce_sh_is_graded_and_marked_invalid(
    case: tuple[Path, Path],
) -> None:
    paper, submission = case
    (submission / "reproduce.sh").unlink()
    judge = Recorder()
    report = grade_paper(paper, submission, None, None, GradingOptions(), judge.model)
    assert report["valid_submission"] is False and report["score"] > 0
    assert "(the submission has no reproduce.sh)" in judge.gradings[0][2]["content"]


def test_a_missing_paper_is_one_line_naming_it(case: tuple[Path, Path]) -> None:
    paper, submission = case
    (paper / "paper.md").unlink()
    with pytest.raises(RubricError, match=f"paper not found: {paper / 'paper.md'}$"):
        grade_paper(paper, submission, None, None, GradingOptions(), Recorder().model)
