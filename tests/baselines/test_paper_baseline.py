"""PaperBench's demo paper: its baseline writes the reference repository, and ``check``
reproduces it as the agent user and verifies the paper's results in what it produced."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from baselines.cli import main
from bench_adapters.paperbench.contract import check_submission
from tests.bench_adapters.paperbench.task_helpers import DEMO, git, paper_cache

__all__ = ["paper_cache"]


def test_run_writes_a_committed_valid_repository(
    paper_cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "--task", DEMO, "--out", str(tmp_path / "run")]) == 0
    out = capsys.readouterr().out
    assert "val js_risk_d10_r0 2.00" in out and "Submission is valid" in out
    submission = tmp_path / "run" / "submission"
    assert check_submission(submission)[0]
    assert git(submission, "ls-files").split() == [".gitignore", "README.md", "reproduce.sh",
                                                    "simulate.py"]  # fmt: skip
    grade = json.loads((tmp_path / "run" / "grade.json").read_text())
    assert grade["graded"] is False and grade["valid_submission"] is True  # no judge model


@pytest.mark.slow
def test_check_reproduces_the_reference_and_verifies_its_outputs(
    paper_cache: Path, agent_dir: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    out = agent_dir("pb-check-") / "check"
    assert main(["check", "--tasks", DEMO, "--out", str(out)]) == 0, capsys.readouterr().err
    report = json.loads((out / "check.json").read_text())
    outcomes = {(o["submission"], o["expectation"]): o for o in report["tasks"][0]["outcomes"]}
    assert report["summary"]["failed"] == 0 and report["summary"]["passed"] == len(outcomes) == 9
    assert outcomes[("baseline", "reproduces")]["evidence"].startswith("exit code 0")
    assert outcomes[("no-reproduce-sh", "invalid, with a message")]["evidence"].startswith(
        "rejected: Submission invalid! reproduce.sh is not committed"
    )
    assert (
        "root 0.8977"
        in outcomes[("graded-tree", "human-graded tree covers the rubric")]["evidence"]
    )
