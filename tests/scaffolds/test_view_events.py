"""What a run page is made of, without a browser: events as transcript items, the record as
read (torn and unknown lines), the header's grade line for each benchmark, monitor quotes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scaffolds.view.events import items
from scaffolds.view.load import load_run
from scaffolds.view.page import grade_facts, place_evidence, run_data


def write_run(run_dir: Path, lines: list[str], **summary: Any) -> Path:
    run_dir.mkdir()
    (run_dir / "run.json").write_text(json.dumps({"scaffold": "basic", "task": "t", **summary}))
    (run_dir / "trajectory.jsonl").write_text("".join(line + "\n" for line in lines))
    return run_dir


def test_event_numbers_are_trajectory_lines_even_past_unreadable_ones(tmp_path: Path) -> None:
    lines = [
        json.dumps({"t": 10.0, "kind": "start"}),
        "{not json",
        json.dumps({"t": 12.5, "kind": "message", "purpose": "continue",
                    "message": {"role": "user", "content": "Keep going.\n[0:59:00 time left]"}}),
        json.dumps({"t": 13.0, "kind": "future_kind", "detail": [1, 2]}),
        json.dumps({"t": 14.0, "kind": "message", "message": "not a dict"}),
    ]  # fmt: skip
    run_dir = write_run(tmp_path / "run", lines)
    with (run_dir / "trajectory.jsonl").open("a") as f:
        f.write('{"t": 15.0, "kind": "obs')  # torn by a kill
    files = load_run(run_dir)
    assert [n for n, _ in files.events] == [0, 2, 3, 4] and files.unreadable_lines == 2
    shown = items(files.events, aide=False)
    assert [(s["i"], s["kind"], s["t"]) for s in shown] == [
        (0, "run", 0.0), (2, "reminder", 2.5), (3, "future_kind", 3.0), (4, "message", 4.0)
    ]  # fmt: skip
    assert json.loads(shown[2]["blocks"][0]["text"]) == {"detail": [1, 2]}  # shown, not lost
    assert "not a dict" in shown[3]["blocks"][0]["text"]
    assert run_data(files)["header"]["problems"] == ["2 unreadable line(s) of trajectory.jsonl"]


def test_tool_calls_observations_and_retries() -> None:
    arguments = json.dumps({"code": "print(1)\nprint(2)", "timeout": 30})
    call = {"id": "a", "type": "function", "function": {"name": "python", "arguments": arguments}}
    review = {"id": "r", "type": "function",
              "function": {"name": "submit_review", "arguments": '{"is_bug": true}'}}  # fmt: skip
    events = [
        {"t": 1.0, "kind": "model_call", "purpose": "step", "retry_wait_s": 4.2,
         "message": {"role": "assistant", "content": "Run it.", "tool_calls": [call, review]},
         "usage": {"prompt_tokens": 1200, "completion_tokens": 30, "cost_usd": 0.002}},
        {"t": 1.1, "kind": "tool_call", "id": "a", "name": "python", "arguments": arguments},
        {"t": 2.0, "kind": "observation", "name": "python", "outcome": "tool_error",
         "text": "Traceback ...\n[0:58:59 time left, 9 steps left]", "duration_s": 0.9},
    ]  # fmt: skip
    model, tool, observed = items(list(enumerate(events)), aide=False)
    assert model["title"] == "assistant (step) → python, submit_review"
    assert model["tags"] == ["retry"] and "waited 4.20 s out transient errors" in model["facts"]
    assert "1,200 in / 30 out" in model["facts"] and "$0.0020" in model["facts"]
    # python's arguments are shown with its tool_call event; the review's, which has none, here
    assert [b["label"] for b in model["blocks"]] == ["content", "submit_review: arguments"]
    assert [(b["label"], b["text"], b["code"]) for b in tool["blocks"]] == [
        ("arguments", "timeout: 30", False), ("code", "print(1)\nprint(2)", True)
    ]  # fmt: skip
    assert observed["tags"] == ["error"] and observed["title"] == "python → tool_error"
    assert [b["text"] for b in observed["blocks"]] == [
        "Traceback ...",
        "[0:58:59 time left, 9 steps left]",
    ]  # the budget reminder, apart


def test_grade_line_for_each_benchmark() -> None:
    mlebench = {"score": 0.91, "gold_medal": False, "silver_medal": True, "bronze_medal": False,
                "normalized_reward": 0.8, "valid_submission": True}  # fmt: skip
    assert grade_facts(mlebench)[:3] == [["medal", "silver"], ["score", "0.91"], ["reward", "0.8"]]
    tam = {"score": 0.3, "rank": 4, "participants": 120, "rank_pct": 0.033}
    facts = grade_facts(tam)
    assert ["rank", "4 of 120"] in facts and ["rank percentile", "0.033"] in facts
    assert grade_facts({"score": 0.42, "valid_submission": True}) == [
        ["score", "0.42"],
        ["valid submission", "yes"],
    ]  # a PaperBench replication score: no medals
    later = {"graded": False, "reason": "ended with --grade-later", "grade_command": "python -m x"}
    assert grade_facts(later) == [
        ["grade", "not graded (ended with --grade-later)"],
        ["grade with", "python -m x"],
    ]
    assert grade_facts({"error": "KeyError: 'id'"}) == [["grading failed", "KeyError: 'id'"]]
    assert grade_facts(None) == [["grade", "not graded yet"]]


def test_monitor_quotes_are_placed_as_the_page_shows_them() -> None:
    arguments = json.dumps({"code": "open('/answers/test.csv')\nprint(1)"})
    shown = items(
        [(0, {"t": 0, "kind": "tool_call", "name": "python", "arguments": arguments})], False
    )
    monitor = {"checks": [{"name": "answers_access", "evidence": [
        {"event": 0, "quote": "open('/answers/test.csv')\\nprint"},  # from the JSON text
        {"event": 0, "quote": "open('/answers"},
        {"event": 0, "quote": "not in the event"},
        {"event": 7, "quote": "no such event"},
    ]}]}  # fmt: skip
    place_evidence(monitor, shown, None)
    placed = [e["shown_quote"] for e in monitor["checks"][0]["evidence"]]
    assert placed == ["open('/answers/test.csv')\nprint", "open('/answers", None, None]
