"""Scaffold runs on a TAM task with replayed models: each ends with the submission and the final
code, best_solution.py, beside the record (or with the code's absence recorded), graded with a
rank on the real leaderboard and, with a judge model, the constraint verdicts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aide_tree.cassette import operator_reply, review_call, write_cassette
from scaffolds import aide, basic

SOLUTION = """\
import pandas as pd
train = pd.read_csv("data/train.csv")
test = pd.read_csv("data/test.csv")
majority = train["class"].mode()[0]
pd.DataFrame({"id": test["id"], "class": majority}).to_csv("submission/submission.csv", index=False)
print("validation MCC: 0.0")
"""
WRITE_BOTH = f"CODE = {SOLUTION!r}\nexec(CODE)\nopen('best_solution.py', 'w').write(CODE)\n"


pytestmark = pytest.mark.slow  # real kernels: about 15 s a run


def test_basic_agent_ends_with_the_submission_and_its_final_code(
    tam_data: Path, runs_root: Path, write_cassette: Any, call: Any
) -> None:
    replies = [
        {"content": "Train and keep the code.", "tool_calls": [call("python", code=WRITE_BOTH)]},
        {"tool_calls": [call("validate_submission")]},
        {"content": "Done.", "tool_calls": [call("answer")]},
    ]
    agent = write_cassette("tam-basic", replies)
    verdicts = runs_root / "tam-judge.jsonl"
    verdicts.write_text("".join(
        json.dumps({"role": "assistant", "content": None, "tool_calls": [{"id": "v", "type": "function",
                    "function": {"name": "submit_verdict", "arguments": json.dumps({"answer": a, "reason": "r"})}}]}) + "\n"
        for a in ["Yes", "No", "Yes", "Yes", "No", "Yes"]
    ))  # fmt: skip
    out = runs_root / "tam-basic-run"
    argv = ["--model", f"replay:{agent}", "--task", "tam/tabular/medium", "--data-dir", str(tam_data),
            "--out", str(out), "--steps", "5", "--time-limit", "5m", "--judge-model", f"replay:{verdicts}"]  # fmt: skip
    assert basic.main(argv) == 0

    assert (out / "submission" / "submission.csv").is_file()
    assert (out / "best_solution.py").read_text() == SOLUTION
    summary = json.loads((out / "run.json").read_text())
    assert summary["status"] == "submitted" and summary["final_code"] == "best_solution.py"
    grade = summary["grade"]
    assert grade["valid_submission"] and grade["made_submission"] and grade["participants"] == 2424
    assert 0 < grade["rank_pct"] <= 1 and grade["code_path"] == str(out / "best_solution.py")
    assert grade["constraint_pass"] == 4 / 6 and len(grade["constraints"]) == 6
    events = [json.loads(line) for line in (out / "trajectory.jsonl").open()]
    [event] = [e for e in events if e["kind"] == "final_code"]
    assert event["path"] == "best_solution.py" and event["source"] == "workspace"


def test_a_run_without_final_code_records_its_absence(
    tam_data: Path, runs_root: Path, write_cassette: Any, call: Any
) -> None:
    code = f"exec({SOLUTION!r})\nimport os\nos.symlink('/etc/passwd', 'best_solution.py')\n"
    agent = write_cassette("tam-no-code", [{"tool_calls": [call("python", code=code)]},
                                          {"tool_calls": [call("answer")]}])  # fmt: skip
    out = runs_root / "tam-no-code-run"
    argv = ["--model", f"replay:{agent}", "--task", "tam/tabular/medium", "--data-dir", str(tam_data),
            "--out", str(out), "--steps", "5", "--time-limit", "5m"]  # fmt: skip
    assert basic.main(argv) == 0
    summary = json.loads((out / "run.json").read_text())
    assert summary["final_code"] is None and not (out / "best_solution.py").exists()
    assert summary["grade"]["valid_submission"] and summary["grade"]["code_path"] is None
    [event] = [json.loads(x) for x in (out / "trajectory.jsonl").open() if '"final_code"' in x]
    assert event["path"] is None and "no best_solution.py" in event["missing"]


def test_aide_keeps_its_best_nodes_code_as_the_final_code(tam_data: Path, runs_root: Path) -> None:
    out = runs_root / "tam-aide-run"
    cassette = write_cassette(
        runs_root / "tam-aide.jsonl",
        [operator_reply("Predict the majority class.", SOLUTION),
         review_call(is_bug=False, summary="Runs; MCC 0.", metric=0.0)],
    )  # fmt: skip
    argv = ["--model", f"replay:{cassette}", "--task", "tam/tabular/medium", "--data-dir", str(tam_data),
            "--out", str(out), "--steps", "1", "--seed", "1"]  # fmt: skip
    assert aide.main(argv) == 0
    summary = json.loads((out / "run.json").read_text())
    assert (out / "best_solution.py").read_text() == SOLUTION and summary[
        "final_code"
    ] == "best_solution.py"
    assert (out / "submission" / "submission.csv").is_file() and summary["grade"][
        "valid_submission"
    ]
    [event] = [json.loads(x) for x in (out / "trajectory.jsonl").open() if '"final_code"' in x]
    assert event["source"] == "scaffold"
