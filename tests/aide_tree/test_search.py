"""Whole AIDE runs through the real kernel, validator and grader, driven by replayed answers."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aide_tree.cassette import operator_reply, review_call, review_json, write_cassette
from scaffolds.aide import main

SOLUTION = """\
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

train = pd.read_csv("data/train.csv")
test = pd.read_csv("data/test.csv")
X, y = train.drop(columns=["id", "target"]), train["target"]
model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
print("validation ROC-AUC:", cross_val_score(model, X, y, cv=3, scoring="roc_auc").mean())
model.fit(X, y)
proba = model.predict_proba(test.drop(columns=["id"]))[:, 1]
pd.DataFrame({"id": test["id"], "target": proba}).to_csv("submission/submission.csv", index=False)
"""
KEY_ERROR = 'import csv\nrows = list(csv.DictReader(open("data/train.csv")))\nprint(rows[0]["no_such_column"])\n'
NO_SUBMISSION = 'print("validation ROC-AUC: 0.9")\n'
COPY_SAMPLE = (
    'import shutil\nshutil.copy("data/sample_submission.csv", "submission/submission.csv")\n'
    'print("validation ROC-AUC: 0.5")\n'
)

Runner = Callable[..., tuple[str, dict[str, Any], Any, Path]]


def journal(run_dir: Path) -> list[dict[str, Any]]:
    lines = (run_dir / "journal.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines[1:]]


def test_a_correct_draft_reaches_a_valid_submission_and_a_medal(run_dir: Path, capsys: Any) -> None:
    cassette = write_cassette(
        run_dir.parent / "solve.jsonl",
        [
            operator_reply("Scale the features and fit a logistic regression.", SOLUTION),
            review_call(is_bug=False, summary="Cross-validated ROC-AUC near 0.997.", metric=0.997),
        ],
    )
    argv = [
        "--model",
        f"replay:{cassette}",
        "--task",
        "demo/tabular-binary",
        "--out",
        str(run_dir),
        "--steps",
        "1",
        "--seed",
        "1",
    ]
    assert main(argv) == 0
    assert "status=step_limit" in capsys.readouterr().out

    summary = json.loads((run_dir / "run.json").read_text())
    grade = summary["grade"]
    assert grade["valid_submission"] and grade["any_medal"] and grade["normalized_reward"] > 0.9
    assert summary["config"]["num_drafts"] == 5 and summary["best_node"] == 0
    [node] = journal(run_dir)
    assert node["operator"] == "draft" and not node["is_buggy"] and node["metric"] == 0.997
    assert node["submission_valid"] and node["model_calls"] == 2
    assert (run_dir / "best_solution.py").read_text() == SOLUTION
    assert (run_dir / "submission" / "submission.csv").is_file()
    assert (run_dir / "tree.html").is_file()
    kinds = {json.loads(line)["kind"] for line in (run_dir / "trajectory.jsonl").open()}
    assert {"model_call", "execution", "node"} <= kinds


def test_buggy_code_is_debugged_and_a_missing_submission_is_named(run_aide: Runner) -> None:
    status, grade, script, run_dir = run_aide(
        [
            operator_reply("Read the CSV.", KEY_ERROR),
            review_call(True, "KeyError: the column does not exist.", None),
            operator_reply("Fix the column name.", NO_SUBMISSION),
            review_call(False, "Printed a score.", 0.9),  # the missing file still makes it buggy
            operator_reply("Write the submission too.", COPY_SAMPLE),
            review_json(False, "Wrote the sample submission.", 0.5),
        ],
        steps=3,
        num_drafts=1,
        debug_prob=1.0,
    )
    nodes = journal(run_dir)
    assert [(n["operator"], n["parent_id"]) for n in nodes] == [
        ("draft", None),
        ("debug", 0),
        ("debug", 1),
    ]
    assert (
        nodes[0]["exception"] == "KeyError" and nodes[0]["exit_code"] == 1 and nodes[0]["is_buggy"]
    )
    assert nodes[1]["is_buggy"] and nodes[1]["submission"] is None
    assert "does not exist" in nodes[1]["validation"]
    assert [n["is_buggy"] for n in nodes] == [True, True, False]

    debug_prompt = script.prompts[4][-1]["content"]  # the operator prompt of step 3
    assert nodes[1]["validation"] in debug_prompt and NO_SUBMISSION.strip() in debug_prompt
    first_debug = script.prompts[2][-1]["content"]
    assert "KeyError" in first_debug and "no_such_column" in first_debug
    assert status == "step_limit" and grade["valid_submission"]  # the sample file: valid, no medal
    assert not grade["any_medal"]


def test_a_node_the_time_limit_stops_is_recorded_as_cut(run_aide: Runner) -> None:
    status, _, _, run_dir = run_aide(
        [
            operator_reply("Wait for it.", "import time\ntime.sleep(60)\n"),
            review_call(True, "It ran out of time.", None),
        ],
        time_limit="4s",
    )
    events = [json.loads(line) for line in (run_dir / "trajectory.jsonl").read_text().splitlines()]
    [execution] = [e for e in events if e["kind"] == "execution"]
    assert execution["timed_out"] and execution["cut"] == "time_limit"
    assert status == "time_limit"


def test_an_answer_without_code_gets_one_reminder_then_fails_the_step(run_aide: Runner) -> None:
    status, _, script, run_dir = run_aide(
        [operator_reply("I would use a forest.", None), operator_reply("A forest, really.", None)],
        steps=1,
    )
    [node] = journal(run_dir)
    assert node["code"] == "" and node["is_buggy"] and node["model_calls"] == 2
    assert "no code block" in script.prompts[1][-1]["content"]
    assert status == "step_limit"


def test_a_linked_submission_is_refused(run_aide: Runner) -> None:
    link = 'import os\nos.symlink("../data/sample_submission.csv", "submission/submission.csv")\n'
    _, grade, _, run_dir = run_aide(
        [operator_reply("Link the sample.", link), review_call(False, "Linked.", 0.5)], steps=1
    )
    [node] = journal(run_dir)
    assert node["is_buggy"] and not node["submission_valid"]
    assert node["validation"] == "submission/submission.csv is a link, not a file."
    assert not grade["valid_submission"]  # no best node: nothing is graded


def test_separate_feedback_model_reviews_and_its_usage_is_kept(
    run_aide: Runner, run_dir: Path
) -> None:
    reviews = write_cassette(run_dir.parent / "reviews.jsonl", [review_call(False, "Fine.", 0.5)])
    status, grade, _, run_dir = run_aide(
        [operator_reply("Copy the sample.", COPY_SAMPLE)],
        steps=1,
        feedback_model=f"replay:{reviews}",
    )
    [node] = journal(run_dir)
    assert (node["model_calls"], node["feedback_calls"], node["is_buggy"]) == (1, 1, False)
    summary = json.loads((run_dir / "run.json").read_text())
    assert summary["feedback_model_calls"] == 1 and summary["model_calls"] == 1
    assert status == "step_limit" and grade["valid_submission"]
