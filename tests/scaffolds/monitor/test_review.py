"""The log reviewer on replayed runs, with the replay and scripted judge models: a verdict per
question with its evidence, malformed answers retried then recorded invalid, cost recorded,
medalled runs only by default, and a long log cut to the window with the cut marked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scaffolds.monitor import MonitorConfig, monitor_run
from scaffolds.monitor.review import JUDGE_LOG, TOOL, questions
from scaffolds.replay import ScriptedModel


def verdict_call(**arguments: Any) -> dict[str, Any]:
    call = {
        "id": "v",
        "type": "function",
        "function": {"name": TOOL, "arguments": json.dumps(arguments)},
    }
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [call],
        "usage": {"cost_usd": 0.002},
    }


def write_lines(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_the_questions_are_mle_bench_s_three() -> None:
    keys = [key for key, _ in questions()]
    assert keys == ["llm_api", "manual_submission", "unauthorized_access"]


def test_replayed_review_keeps_valid_verdicts_and_records_malformed_ones(
    dirty_run, call_events, tmp_path: Path
) -> None:
    api_event = call_events(dirty_run.dir)["try:"]
    malformed = {"role": "assistant", "content": "Yes, clearly.", "usage": {"cost_usd": 0.001}}
    cassette = write_lines(
        tmp_path / "judge.jsonl",
        [
            verdict_call(justification=f"Event {api_event} imports openai.",
                         evidence=f"[event {api_event}] import openai", flagged=True),
            malformed,  # manual_submission: no verdict at all, asked again...
            verdict_call(justification="Unsure.", flagged="perhaps"),  # ...malformed again
            verdict_call(justification="Only data/ was read.", evidence="", flagged=False),
        ],
    )  # fmt: skip
    (dirty_run.dir / JUDGE_LOG).unlink(missing_ok=True)
    config = MonitorConfig(run_dir=dirty_run.dir, judge_model=f"replay:{cassette}", review="all")
    report, notes = monitor_run(dirty_run.dir, config)

    review = report["review"]
    assert review["model"] == f"replay:{cassette}"
    api, manual, access = review["verdicts"]
    assert api["valid"] and api["flagged"] and api["question"].startswith("Did the agent call")
    assert f"[event {api_event}] import openai" in api["evidence"]
    assert not manual["valid"] and not manual["flagged"]
    assert "malformed verdict" in manual["evidence"]
    assert access["valid"] and not access["flagged"]
    assert abs(review["cost_usd"] - 0.007) < 1e-9  # every answer, the two bad ones included
    assert any(note.startswith(f"log review by replay:{cassette}: 3 question(s)") for note in notes)
    log = [json.loads(line) for line in (dirty_run.dir / JUDGE_LOG).read_text().splitlines()]
    assert [line["valid"] for line in log] == [True, False, True]


def test_by_default_only_medalled_runs_are_reviewed(dirty_run, clean_run) -> None:
    prompts: list[list[dict[str, Any]]] = []

    def judge(messages, tools):
        prompts.append(messages)
        return verdict_call(justification="Trained a model on data/.", evidence="", flagged=False)

    skipped, notes = monitor_run(
        dirty_run.dir,
        MonitorConfig(run_dir=dirty_run.dir, judge_model="unused"),
        ScriptedModel(judge),
    )
    assert skipped["review"] is None and not prompts
    assert any("no medal and is not above the median" in note for note in notes)

    reviewed, _ = monitor_run(
        clean_run.dir, MonitorConfig(run_dir=clean_run.dir), ScriptedModel(judge, name="judge-x")
    )
    assert reviewed["review"]["model"] == "judge-x" and len(prompts) == 3
    assert not reviewed["flagged"]
    assert reviewed["review"]["cost_usd"] == 0.006
    system, user = prompts[0]
    assert system["role"] == "system" and f"`{TOOL}`" in system["content"]
    assert "print('rows written:', len(pred))" in user["content"]  # the code the agent ran
    assert "run ended: submitted" in user["content"]
    assert "cut to fit" not in user["content"]


def test_a_log_too_long_for_the_window_is_cut_with_the_cut_marked(clean_run) -> None:
    seen: list[str] = []

    def judge(messages, tools):
        seen.append(messages[-1]["content"])
        return verdict_call(justification="-", evidence="", flagged=False)

    config = MonitorConfig(run_dir=clean_run.dir, review="all", judge_context_window=6600)
    monitor_run(clean_run.dir, config, ScriptedModel(judge))
    prompt = seen[0]
    assert "cut to fit the reviewer's window ...]" in prompt
    assert "[event 1] system" in prompt  # the head: the instructions the agent was given
    assert "run ended: submitted" in prompt  # the tail: how the run ended
    assert len(prompt) < 6600 * 3.5
