"""Context truncation keeps prompts in the window and never splits a tool call from its results."""

from __future__ import annotations

import random

from scaffolds.context import CUT_MARKER, approx_tokens, fit, split_units
from scaffolds.protocols import Message


def synthetic_conversation(turns: int, rng: random.Random) -> list[Message]:
    messages: list[Message] = [
        {"role": "system", "content": "You are an agent."},
        {"role": "user", "content": "Solve the task. " * 20},
    ]
    for turn in range(turns):
        kind = rng.random()
        if kind < 0.2:
            messages.append(
                {"role": "assistant", "content": f"thinking {turn} " * rng.randint(1, 80)}
            )
            messages.append({"role": "user", "content": "Please continue."})
            continue
        n_calls = rng.randint(1, 3)
        calls = [
            {
                "id": f"t{turn}_{k}",
                "type": "function",
                "function": {"name": "python", "arguments": '{"code": "x=1"}'},
            }
            for k in range(n_calls)
        ]
        messages.append({"role": "assistant", "content": None, "tool_calls": calls})
        for call in calls:
            size = rng.choice([10, 200, 2000, 30000])  # some observations bigger than the window
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": "o" * size})
    return messages


def assert_calls_paired(prompt: list[Message]) -> None:
    open_ids: set[str] = set()
    for msg in prompt:
        if msg["role"] == "tool":
            assert msg["tool_call_id"] in open_ids, "tool result without its call"
            open_ids.discard(msg["tool_call_id"])
        else:
            assert not open_ids, "a tool call lost its result"
            open_ids = {c["id"] for c in msg.get("tool_calls") or []}
    assert not open_ids


def test_500_turns_stay_under_window_with_pairs_intact() -> None:
    rng = random.Random(7)
    conversation = synthetic_conversation(500, rng)
    limit = 3000
    for step in range(2, len(conversation) + 1, 37):
        history = conversation[:step]
        if history[-1].get("tool_calls") or (
            step < len(conversation) and conversation[step]["role"] == "tool"
        ):
            continue  # a prompt is only sent once every result of the last call has arrived
        prompt, _ = fit(history, limit)
        assert sum(approx_tokens(m) for m in prompt) <= limit
        assert prompt[0] == history[0] and prompt[1] == history[1]
        assert_calls_paired(prompt)


def test_no_change_when_it_fits() -> None:
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]
    prompt, trunc = fit(messages, 1000)
    assert prompt == messages and not trunc.happened()


def test_oversized_single_message_is_cut_in_the_middle() -> None:
    big = "A" * 5000 + "MIDDLE" + "Z" * 5000
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": big}]
    prompt, trunc = fit(messages, 500)
    content = prompt[1]["content"]
    assert trunc.cut_messages >= 1
    assert content.startswith("AAA") and content.endswith("ZZZ") and "MIDDLE" not in content
    assert CUT_MARKER.split("{n}")[0].strip() in content
    assert sum(approx_tokens(m) for m in prompt) <= 500


def test_dropping_leaves_a_note_and_keeps_newest() -> None:
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "task"}]
    messages += [{"role": "assistant", "content": f"reply {i} " + "x" * 400} for i in range(50)]
    prompt, trunc = fit(messages, 400)
    assert trunc.dropped_messages > 0
    assert "earlier messages were removed" in prompt[2]["content"]
    assert prompt[-1] == messages[-1]


def test_units_group_calls_with_results() -> None:
    call = {"id": "a", "type": "function", "function": {"name": "bash", "arguments": "{}"}}
    msgs = [
        {"role": "assistant", "content": None, "tool_calls": [call, {**call, "id": "b"}]},
        {"role": "tool", "tool_call_id": "a", "content": "1"},
        {"role": "tool", "tool_call_id": "b", "content": "2"},
        {"role": "user", "content": "next"},
    ]
    assert [len(u) for u in split_units(msgs)] == [3, 1]
