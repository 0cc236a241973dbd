"""BasicAgent on the demo task: solving it, the continue message, refused answers, format
errors, step and time limits. Real kernels and files; replay and scripted models."""

from __future__ import annotations

import json
import re
import time

from basic_agent import committed_history
from scaffolds.basic import main
from scaffolds.replay import ScriptedModel

BUDGET_LINE = re.compile(r"\n\[\d+:\d\d:\d\d time left(, \d+ steps left)?\]$")

TRAIN = """import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
train, test = pd.read_csv('data/train.csv'), pd.read_csv('data/test.csv')
X, y = train.drop(columns=['id', 'target']), train['target']
model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(X, y)
pred = model.predict_proba(test[X.columns])[:, 1]
pd.DataFrame({'id': test['id'], 'target': pred}).to_csv('submission/submission.csv', index=False)
print('rows written:', len(pred))"""

COPY_SAMPLE = (
    "import shutil; shutil.copy('data/sample_submission.csv', 'submission/submission.csv')"
)


def test_replay_solves_the_demo_task_through_python_and_answer(
    runs_root, write_cassette, call
) -> None:
    cassette = write_cassette(
        "solve",
        [
            {"content": "Look first.", "tool_calls": [call("bash", command="head -c 300 data/train.csv")]},
            {"tool_calls": [call("python", code=TRAIN)]},
            {"tool_calls": [call("validate_submission")]},
            {"content": "Done.", "tool_calls": [call("answer")]},
        ],
    )  # fmt: skip
    out = runs_root / "basic-cli-solve"
    argv = ["--model", f"replay:{cassette}", "--task", "demo/tabular-binary", "--out", str(out)]
    assert main([*argv, "--steps", "10", "--time-limit", "10m"]) == 0

    summary = json.loads((out / "run.json").read_text())
    assert summary["status"] == "submitted" and summary["steps"] == 4
    assert summary["grade"]["valid_submission"] and summary["grade"]["score"] > 0.9
    assert json.loads((out / "grade.json").read_text())["valid_submission"]
    assert (out / "submission" / "submission.csv").is_file() and (out / "code").is_dir()

    trajectory = [json.loads(line) for line in (out / "trajectory.jsonl").open()]
    observations = [e for e in trajectory if e["kind"] == "observation"]
    assert [o["name"] for o in observations] == ["bash", "python", "validate_submission", "answer"]
    assert "rows written: 170" in observations[1]["text"]
    assert all(BUDGET_LINE.search(o["text"]) for o in observations)
    assert "is a valid submission" in observations[2]["text"]
    tool_calls = [e for e in trajectory if e["kind"] == "tool_call"]
    assert [t["id"] for t in tool_calls] == [o["tool_call_id"] for o in observations]


def test_reply_without_tool_call_gets_the_continue_message_and_counts_as_a_step(
    run_agent, events, call
) -> None:
    prompts: list[list[dict]] = []

    def policy(messages, tools):
        prompts.append(messages)
        if len(prompts) == 1:
            return {"content": "I think I will train a model."}
        return None

    run, status, _ = run_agent(ScriptedModel(policy), steps=5)
    assert status == "model_exhausted" and run.budget.steps == 1
    last = prompts[1][-1]
    assert last["role"] == "user" and "did not call a tool" in last["content"]
    assert "Call `answer` only when you are done" in last["content"]
    assert BUDGET_LINE.search(last["content"]) and "4 steps left" in last["content"]
    assert [e["purpose"] for e in events(run, "message")] == ["system", "task", "continue"]


def test_invalid_answer_is_refused_with_the_reason_and_the_loop_goes_on(
    run_agent, write_cassette, call, events
) -> None:
    cassette = write_cassette(
        "refused",
        [
            {"tool_calls": [call("answer")]},
            {"tool_calls": [call("bash", command="printf 'id,guess\\n1,2\\n' > submission/submission.csv")]},
            {"tool_calls": [call("answer")]},
            {"tool_calls": [call("python", code=COPY_SAMPLE)]},
            {"tool_calls": [call("answer", path="submission/submission.csv")]},
            {"tool_calls": [call("python", code="print('never run')")]},
        ],
    )  # fmt: skip
    run, status, grade = run_agent(f"replay:{cassette}")
    assert status == "submitted" and run.budget.steps == 5
    answers = [o for o in events(run, "observation") if o["name"] == "answer"]
    assert [a["outcome"] for a in answers] == ["tool_error", "tool_error", "ok"]
    assert "There is no file" in answers[0]["text"]
    assert "Submission rejected, nothing was submitted" in answers[1]["text"]
    assert "target" in answers[1]["text"]  # the validator's reason names the missing column
    assert grade["valid_submission"]


def test_malformed_calls_say_what_was_wrong_and_end_the_run_after_the_limit(
    run_agent, call, events
) -> None:
    replies = [
        [call("python", raw='{"code": "print(1)"')],  # invalid JSON
        [call("pyhton", code="print(1)")],  # unknown tool
        [call("python", code="print('fine')")],  # resets the count
        [call("python")],  # missing argument
        [call("bash", command="ls", cwd="/")],  # unexpected argument
        [call("python", raw="[1, 2]")],  # not an object
        [call("python", code="print('not reached')")],
    ]
    script = iter(replies)
    model = ScriptedModel(lambda messages, tools: {"tool_calls": next(script)})
    run, status, _ = run_agent(model, max_format_errors=3)
    assert status == "format_errors" and run.budget.steps == 6
    assert run.record.summary["error"] == "3 malformed tool calls in a row"
    texts = [o["text"] for o in events(run, "observation")]
    assert "The arguments of 'python' are not valid JSON" in texts[0]
    assert "Unknown tool 'pyhton'. Available tools: python, bash" in texts[1]
    assert texts[2].startswith("fine")
    assert "Missing required argument 'code' for 'python'" in texts[3]
    assert "Unexpected argument 'cwd' for 'bash'" in texts[4]
    assert "must be a JSON object" in texts[5]
    counts = [re.search(r"That is (\d) malformed", t) for t in texts]
    assert [int(m.group(1)) if m else 0 for m in counts] == [1, 2, 0, 1, 2, 3]
    assert all(BUDGET_LINE.search(t) for t in texts)


def test_step_limit_ends_the_run_after_exactly_that_many_model_calls(run_agent, call) -> None:
    model = ScriptedModel(lambda m, t: {"tool_calls": [call("python", code="print(1)")]})
    run, status, grade = run_agent(model, steps=3)
    assert status == "step_limit" and model.calls == 3
    assert run.record.summary["steps"] == 3 and run.record.summary["model_calls"] == 3
    assert grade["valid_submission"] is False
    history, steps = committed_history(run.record.events())
    assert steps == 3 and "0 steps left" in history[-1]["content"]


def test_a_tool_call_that_would_outlive_the_time_left_is_cut_to_it(run_agent, call, events) -> None:
    model = ScriptedModel(
        lambda m, t: {"tool_calls": [call("python", code="import time; time.sleep(120)")]}
    )
    started = time.monotonic()
    run, status, _ = run_agent(model, time_limit="6s")
    assert status == "time_limit" and time.monotonic() - started < 90  # uncut: 120 s
    (observation,) = events(run, "observation")
    assert observation["duration_s"] < 60
    assert "0:00:00 time left" in observation["text"]
    assert run.record.summary["error"].startswith("time limit of 0:00:06 reached")
