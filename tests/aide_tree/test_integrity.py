"""A scaffold that scores itself against the private answers mid-run is caught: ``task.grade``
refuses while the sandbox is open, and the run ends ``harness_error`` with the violation
named, even when the scaffold swallows the refusal. An honest AIDE run's record counts its
own validations apart from the agent's and says the best node was graded."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any, ClassVar

import pytest

from aide_tree import Aide, AideConfig
from aide_tree.cassette import operator_reply, review_call
from scaffolds.integrity import IntegrityViolation
from scaffolds.replay import ScriptedModel
from scaffolds.runtime import execute, open_run

SOLUTION = """\
import pandas as pd
from sklearn.linear_model import LogisticRegression
train, test = pd.read_csv("data/train.csv"), pd.read_csv("data/test.csv")
X, y = train.drop(columns=["id", "target"]), train["target"]
model = LogisticRegression(max_iter=1000).fit(X, y)
proba = model.predict_proba(test.drop(columns=["id"]))[:, 1]
pd.DataFrame({"id": test["id"], "target": proba}).to_csv("submission/submission.csv", index=False)
print("validation ROC-AUC: 0.9")
"""
RECORDS = [
    operator_reply("Fit a logistic regression.", SOLUTION),
    review_call(is_bug=False, summary="Wrote a submission.", metric=0.9),
] * 2


class PeekingAide(Aide):
    """Scores each node's submission on the private answers: what the leaderboard forbids."""

    scores: ClassVar[list[Any]] = []

    def step(self) -> None:
        super().step()
        self.scores.append(self.run.task.grade(self.run.submission_path)["score"])


class QuietlyPeekingAide(PeekingAide):
    """The same, hiding the refusal from the run."""

    def step(self) -> None:
        with contextlib.suppress(IntegrityViolation):
            super().step()


def run_with(agent: type[Aide], run_dir: Path) -> tuple[str, dict[str, Any]]:
    records = iter(RECORDS)
    model = ScriptedModel(lambda messages, tools: next(records, None))
    config = AideConfig(model="scripted", task="demo/tabular-binary", out=run_dir, steps=2)
    status, _ = execute(open_run(config, "aide", model=model), lambda r: agent(r).search())
    return status, json.loads((run_dir / "run.json").read_text())


@pytest.mark.parametrize("agent", [PeekingAide, QuietlyPeekingAide])
def test_grading_mid_run_is_refused_and_ends_the_run_as_a_harness_error(
    agent: type[PeekingAide], run_dir: Path
) -> None:
    agent.scores = []
    status, record = run_with(agent, run_dir)
    assert status == "harness_error" and record["status"] == "harness_error"
    assert agent.scores == []  # no score ever reached the scaffold
    assert record["error"].startswith(
        "integrity violation: task.grade was called while the sandbox"
    )
    integrity = record["integrity"]
    assert integrity["violations"] and "sandbox was open" in integrity["violations"][0]
    assert record["grade"] == {"error": record["error"], "valid_submission": False}  # no credit


def test_an_honest_run_records_its_validations_and_how_its_submission_was_chosen(
    run_dir: Path,
) -> None:
    status, record = run_with(Aide, run_dir)
    assert status == "step_limit" and record["grade"]["valid_submission"]
    integrity = record["integrity"]
    assert integrity["violations"] == [] and integrity["chosen_by"] == "best_node"
    assert integrity["validations"] == {"agent": 0, "harness": 2}  # one check per node
    assert integrity["sandbox_closed_at"] <= integrity["grading_started_at"]
    assert record["format_version"] == 2
