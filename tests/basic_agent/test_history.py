"""Rebuilding the conversation from the trajectory: completed steps kept once, a step cut off
by a kill dropped, tool calls given ids their results can name."""

from __future__ import annotations

from basic_agent import committed_history
from basic_agent.history import normalize_reply


def reply(*codes: str, call_id: str = "") -> dict:
    calls = [
        {"id": call_id, "type": "function", "function": {"name": "python", "arguments": code}}
        for code in codes
    ]
    return {"role": "assistant", "content": None, "tool_calls": calls}


def step(codes: list[str], ids: list[str], n: int) -> list[dict]:
    return [
        {"kind": "model_call", "purpose": "step", "message": reply(*codes)},
        *[{"kind": "observation", "tool_call_id": i, "text": f"out {i}"} for i in ids],
        {"kind": "checkpoint", "step": n},
    ]


def test_a_step_cut_off_by_a_kill_is_dropped_and_completed_steps_are_kept_once() -> None:
    system = {"role": "system", "content": "s"}
    task = {"role": "user", "content": "t"}
    note = {"role": "user", "content": "resumed"}
    events = [
        {"kind": "start"},
        {"kind": "message", "purpose": "system", "message": system},
        {"kind": "message", "purpose": "task", "message": task},
        {"kind": "checkpoint", "step": 0},
        *step(["a"], ["call_1_0"], 1),
        {"kind": "model_call", "purpose": "step", "message": reply("b", "c")},
        {"kind": "observation", "tool_call_id": "call_2_0", "text": "half"},  # killed here
        {"kind": "start"},
        {"kind": "message", "purpose": "resumed", "message": note},
        {"kind": "truncation", "dropped_messages": 1},
        *step(["b", "c"], ["call_2_0", "call_2_1"], 2),
    ]
    history, steps = committed_history(events)
    assert steps == 2
    assert [m["role"] for m in history] == [
        "system", "user", "assistant", "tool", "user", "assistant", "tool", "tool"
    ]  # fmt: skip
    assert history[4] == note and "half" not in str(history)
    assert [c["id"] for c in history[5]["tool_calls"]] == ["call_2_0", "call_2_1"]
    assert [m.get("tool_call_id") for m in history[6:]] == ["call_2_0", "call_2_1"]


def test_without_a_checkpoint_nothing_is_kept() -> None:
    events = [{"kind": "start"}, {"kind": "message", "message": {"role": "system", "content": ""}}]
    assert committed_history(events) == ([], 0)


def test_replies_get_unique_call_ids_and_text_content() -> None:
    given = reply("x", "y", call_id="dup")
    assert [c["id"] for c in normalize_reply(given, 7)["tool_calls"]] == ["dup", "call_7_1"]
    assert normalize_reply({"role": "assistant", "content": None}, 1)["content"] == ""
