"""IterativeAgent: no ``answer`` tool, a next-step message sent but never stored, and the file at
the submission path validated and graded when the time or steps run out."""

from __future__ import annotations

import json
import shutil
from typing import Any

import pytest

from basic_agent import committed_history
from bench_adapters import resolve_task
from scaffolds.iterative import main
from scaffolds.replay import ScriptedModel

NEXT_STEP = "Given the progress made so far"

TRAIN = """import pandas as pd
from sklearn.ensemble import RandomForestClassifier
train, test = pd.read_csv('data/train.csv'), pd.read_csv('data/test.csv')
X, y = train.drop(columns=['id', 'target']), train['target']
model = RandomForestClassifier(n_estimators=10, random_state=0).fit(X, y)
pred = model.predict_proba(test[X.columns])[:, 1]
pd.DataFrame({'id': test['id'], 'target': pred}).to_csv('submission/submission.csv', index=False)
"""


def test_replay_solves_through_file_tools_then_times_out(runs_root, call) -> None:
    replies = [
        [call("view", path="data")],
        [call("create", path="code/train.py", file_text=TRAIN)],
        [call("str_replace", path="code/train.py", old_str="n_estimators=10", new_str="n_estimators=50")],
        [call("insert", path="code/train.py", insert_line=7, insert_text="print('rows:', len(pred))\n")],
        [call("bash", command="python code/train.py")],
        [call("validate_submission")],
        *[[call("bash", command="sleep 60")]] * 3,
    ]  # fmt: skip
    cassette = runs_root / "iterative-solve.jsonl"
    cassette.write_text(
        "".join(json.dumps({"role": "assistant", "content": None, "tool_calls": r}) + "\n" for r in replies)
    )  # fmt: skip
    out = runs_root / "iterative-cli-solve"
    argv = ["--model", f"replay:{cassette}", "--task", "demo/tabular-binary", "--out", str(out)]
    assert main([*argv, "--time-limit", "15s"]) == 0

    summary = json.loads((out / "run.json").read_text())
    assert summary["status"] == "time_limit" and summary["steps"] == 7
    assert summary["grade"]["valid_submission"] and summary["grade"]["score"] > 0.9
    assert "n_estimators=50" in (out / "code" / "train.py").read_text()
    trajectory = [json.loads(line) for line in (out / "trajectory.jsonl").open()]
    observations = [e for e in trajectory if e["kind"] == "observation"]
    assert [o["outcome"] for o in observations[:6]] == ["ok"] * 6
    assert observations[4]["text"].startswith("rows: 170")
    assert "timed out" in observations[6]["text"].lower()
    (final,) = [e for e in trajectory if e["kind"] == "final_validation"]
    assert final["outcome"] == "ok" and "is a valid submission" in final["text"]


@pytest.fixture(scope="module")
def scripted(run_agent, call) -> dict[str, Any]:
    """Four steps: a reply without a tool call, a python call, an ``answer`` call, a python call."""
    seen: list[tuple[list[dict], list[str]]] = []
    replies = [
        {"content": "Let me think."},
        {"tool_calls": [call("python", code="x = 41; print(x + 1)")]},
        {"tool_calls": [call("answer")]},
        {"tool_calls": [call("python", code="print('last')")]},
    ]

    def policy(prompt, tools):
        seen.append((prompt, [t["function"]["name"] for t in tools]))
        return replies[len(seen) - 1]

    run, status, grade = run_agent(ScriptedModel(policy), steps=4)
    return {"run": run, "status": status, "grade": grade, "seen": seen}


def test_no_answer_tool_is_offered(scripted, events) -> None:
    for _, tools in scripted["seen"]:
        assert tools == ["python", "bash", "view", "create", "str_replace", "insert",
                         "validate_submission"]  # fmt: skip
    answer = [o for o in events(scripted["run"], "observation") if o["name"] == "answer"]
    assert answer[0]["outcome"] == "format_error" and "Unknown tool 'answer'" in answer[0]["text"]


def test_the_next_step_message_is_sent_every_call_but_never_stored(scripted) -> None:
    prompts = [prompt for prompt, _ in scripted["seen"]]
    for prompt in prompts:
        assert prompt[-1]["role"] == "user" and NEXT_STEP in prompt[-1]["content"]
        assert sum(NEXT_STEP in str(m.get("content")) for m in prompt) == 1
    trajectory = (scripted["run"].dir / "trajectory.jsonl").read_text()
    assert NEXT_STEP not in trajectory
    history, steps = committed_history(scripted["run"].record.events())
    assert steps == 4 and not any(NEXT_STEP in str(m.get("content")) for m in history)
    assert history[-1]["role"] == "tool" and history[-1]["content"].startswith("last")


def test_a_reply_without_a_tool_call_gets_the_iterative_continue_message(scripted) -> None:
    continue_message = scripted["seen"][1][0][-2]
    assert (
        continue_message["role"] == "user" and "did not call a tool" in continue_message["content"]
    )
    assert "answer" not in continue_message["content"]
    assert "until the time runs out" in continue_message["content"]


def test_whatever_is_at_the_submission_path_is_validated_and_graded_at_the_end(
    scripted, events
) -> None:
    assert scripted["status"] == "step_limit"
    (final,) = events(scripted["run"], "final_validation")
    assert final["outcome"] == "tool_error" and "There is no file" in final["text"]
    assert scripted["grade"]["valid_submission"] is False
    assert (scripted["run"].dir / "grade.json").is_file()


def test_a_link_to_a_file_the_agent_cannot_read_is_never_graded(runs_root, run_agent, call) -> None:
    private = runs_root / "private"
    private.mkdir(mode=0o700)
    answers = private / "answers.csv"
    shutil.copy(resolve_task("demo/tabular-binary").public_dir / "sample_submission.csv", answers)
    link = call("bash", command=f"ln -s {answers} submission/submission.csv")
    replies = iter([{"tool_calls": [link]}])
    run, status, grade = run_agent(ScriptedModel(lambda m, t: next(replies, None)))
    assert status == "model_exhausted"
    assert grade["valid_submission"] is False
    assert not (run.dir / "submission" / "submission.csv").exists()
