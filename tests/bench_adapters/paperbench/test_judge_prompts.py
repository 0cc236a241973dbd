"""Each leaf's prompt follows the rules of its category: which files it shows, whether it holds
``reproduce.log``; files are ranked (LLM or BM25) only when they do not all fit."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from bench_adapters.paperbench.grading import GradingOptions, grade_paper
from bench_adapters.paperbench.judge import NO_REPRODUCTION
from bench_adapters.paperbench.judge_prompts import tokens
from tests.bench_adapters.paperbench.judge_helpers import (
    ADDENDUM,
    CHANGED,
    JUDGE_ADDENDUM,
    PAPER,
    REPRODUCE_LOG,
    REPRODUCE_SH,
    SMALL_RUBRIC,
    SUBMISSION,
    Recorder,
    leaves_of,
    write_paper,
    write_tree,
)

CODE_AND_DOCS = ["README.md", "configs/width.yaml", "optim.py", "train.py"]
RESULTS_AND_DOCS = ["README.md", "results/metrics.csv"]
REQUIREMENT = {
    "cd-adam": "Adam with learning rate 0.001 is implemented.",
    "cd-data": "The dataset is downloaded.",
    "ce-train": "Training was run with Adam.",
    "ra-table": "The test error is below 0.05, as in Table 1.",
}


def shown_files(messages: list[dict[str, Any]]) -> list[str]:
    return re.findall(r'<file path="([^"]+)">', "\n".join(m["content"] for m in messages))


def text(messages: list[dict[str, Any]]) -> str:
    return "\n".join(m["content"] for m in messages)


@pytest.fixture
def case(tmp_path: Path) -> tuple[Path, Path]:
    return write_paper(tmp_path / "paper", SMALL_RUBRIC), write_tree(tmp_path / "sub", SUBMISSION)


def test_each_leaf_prompt_follows_the_rules_of_its_category(case: tuple[Path, Path]) -> None:
    paper, submission = case
    judge = Recorder()
    report = grade_paper(
        paper, submission, REPRODUCE_LOG, CHANGED, GradingOptions(judge_model="x"), judge.model
    )
    assert len(judge.gradings) == 4 and not judge.rankings  # everything fits: nothing to rank
    leaves = leaves_of(report)
    for leaf_id, requirement in REQUIREMENT.items():
        prompt = judge.prompt_for(requirement)
        body = text(prompt)
        assert PAPER.strip() in body and ADDENDUM in body and JUDGE_ADDENDUM in body
        assert REPRODUCE_SH.strip() in body and "<reproduce.sh>" in body
        has_log = "<reproduce.log>" in body and REPRODUCE_LOG.strip() in body
        assert has_log == (not leaf_id.startswith("cd-")), leaf_id
        expected = RESULTS_AND_DOCS if leaf_id.startswith("ra-") else CODE_AND_DOCS
        assert shown_files(prompt) == expected, leaf_id
        assert leaves[leaf_id]["judge_metadata"]["files"] == expected
        assert "never read" not in body and "binary" not in body  # .venv/, weights.bin
        assert prompt[0]["role"] == "system" and "submit_verdict" in prompt[0]["content"]
        assert leaves[leaf_id]["score"] == 1.0 and leaves[leaf_id]["valid_score"]
    # the criterion comes with the criteria before it: ancestors and earlier siblings
    ce_prompt = text(judge.prompt_for(REQUIREMENT["ce-train"]))
    assert "-> group impl" in ce_prompt and "-> group run" in ce_prompt
    assert report["score"] == 1.0 and report["graded"] and report["valid_submission"]
    assert report["judge"]["calls"] == 4 and report["judge"]["cost_usd"] == pytest.approx(0.004)


def test_links_and_fifos_in_the_submission_are_never_read(tmp_path: Path) -> None:
    paper = write_paper(tmp_path / "paper", SMALL_RUBRIC)
    submission = write_tree(tmp_path / "sub", SUBMISSION)
    (submission / "leak.md").symlink_to(paper / "judge.addendum.md")
    (submission / "docs").symlink_to(paper, target_is_directory=True)
    os.mkfifo(submission / "pipe.txt")  # opening it would block the grader for ever
    judge = Recorder()
    grade_paper(paper, submission, REPRODUCE_LOG, CHANGED, GradingOptions(), judge.model)
    for prompt in judge.gradings:
        assert set(shown_files(prompt)) <= set(CODE_AND_DOCS) | set(RESULTS_AND_DOCS)


@pytest.mark.parametrize("changed", [[], ["reproduce.log"], None])
def test_result_analysis_scores_zero_without_a_call_when_reproduction_changed_nothing(
    case: tuple[Path, Path], changed: list[str] | None
) -> None:
    paper, submission = case
    judge = Recorder()
    report = grade_paper(paper, submission, REPRODUCE_LOG, changed, GradingOptions(), judge.model)
    assert len(judge.gradings) == 3
    ra = leaves_of(report)["ra-table"]
    assert ra["score"] == 0.0 and ra["valid_score"] and ra["explanation"] == NO_REPRODUCTION
    assert report["score"] == pytest.approx((2 * 1.0 + 0.5) / 3)


def test_code_dev_grades_only_code_development_leaves_without_the_log(
    case: tuple[Path, Path],
) -> None:
    paper, submission = case
    judge = Recorder(grade=lambda r: int("Adam" in r))
    report = grade_paper(
        paper, submission, None, None, GradingOptions(judge_model="x", code_dev=True), judge.model
    )
    assert len(judge.gradings) == 2
    assert all("<reproduce.log>" not in text(m) for m in judge.gradings)
    assert set(leaves_of(report)) == {"cd-adam", "cd-data"}
    assert report["score"] == report["code_dev_score"] == 0.5 and report["code_dev"]


def test_the_shared_parts_are_cut_to_fit_a_small_window(case: tuple[Path, Path]) -> None:
    paper, submission = case
    judge = Recorder()
    long_log = "".join(f"step {i} loss {1 / (i + 1):.6f}\n" for i in range(20_000))
    options = GradingOptions(judge_model="x", context_window=4000, file_selection="bm25")
    grade_paper(paper, submission, long_log, CHANGED, options, judge.model)
    for prompt in judge.gradings:
        assert sum(tokens(m["content"]) for m in prompt) <= 4000 - 1000  # reply reserve kept
    execution = text(judge.prompt_for(REQUIREMENT["ce-train"]))
    assert "step 0 loss" in execution and "step 19999 loss" in execution  # head and tail
    assert "characters elided" in execution


BULKY = {f"module_{i}.py": f"# helper {i}\n" + "x = 1\n" * 500 for i in range(6)}
OPTIMIZER = "def adam_step(learning_rate):\n    # Adam with learning rate 0.001\n" + "pass\n" * 400


@pytest.fixture
def bulky(tmp_path: Path) -> tuple[Path, Path]:
    paper = write_paper(tmp_path / "paper", SMALL_RUBRIC)
    files = {**SUBMISSION, **BULKY, "zz_adam.py": OPTIMIZER}
    return paper, write_tree(tmp_path / "sub", files)


def test_bm25_puts_the_relevant_file_first_when_not_everything_fits(
    bulky: tuple[Path, Path],
) -> None:
    paper, submission = bulky
    judge = Recorder()
    options = GradingOptions(judge_model="x", context_window=4000, file_selection="bm25")
    report = grade_paper(paper, submission, REPRODUCE_LOG, CHANGED, options, judge.model)
    assert not judge.rankings
    meta = leaves_of(report)["cd-adam"]["judge_metadata"]
    assert meta["ranking"] == "bm25" and meta["candidates"] == 11
    assert meta["files"][0] in {"zz_adam.py", "optim.py", "train.py"}
    assert len(meta["files"]) < 11
    assert shown_files(judge.prompt_for(REQUIREMENT["cd-adam"])) == meta["files"]


def test_the_llm_ranking_chooses_the_files_and_a_bad_one_falls_back_to_bm25(
    bulky: tuple[Path, Path],
) -> None:
    paper, submission = bulky

    def rank(requirement: str, listing: str) -> list[str] | str:
        assert "zz_adam.py (" in listing and "results/metrics.csv" not in listing
        if "dataset" in requirement:
            return "{not a ranking"
        return ["./module_3.py", "nope.py", "module_3.py", "train.py"]

    judge = Recorder(rank=rank)
    options = GradingOptions(judge_model="x", context_window=4000, file_selection="llm")
    report = grade_paper(paper, submission, REPRODUCE_LOG, CHANGED, options, judge.model)
    leaves = leaves_of(report)
    assert leaves["cd-adam"]["judge_metadata"]["files"] == ["module_3.py", "train.py"]
    assert leaves["cd-adam"]["judge_metadata"]["ranking"] == "llm"
    assert leaves["cd-data"]["judge_metadata"]["ranking"].startswith("bm25 (the LLM ranking failed")
    ranking_prompt = text(judge.rankings[0])
    assert PAPER.strip() in ranking_prompt and "<criterion>" in ranking_prompt
    # the Result Analysis candidates (docs + changed results) fit, so that leaf is not ranked
    assert leaves["ra-table"]["judge_metadata"]["ranking"] == "all"
    assert len(judge.rankings) == 2 + 2  # cd-adam, ce-train once; cd-data twice (asked again)
    usage = leaves["cd-adam"]["judge_metadata"]["usage"]
    assert usage["prompt_tokens"] == 200  # the ranking call and the grading call
