"""A 500-turn run keeps every prompt within a small window, tool calls never parted from results."""

from __future__ import annotations

import time

from scaffolds.context import approx_tokens
from scaffolds.replay import ScriptedModel

WINDOW = 2000
TURNS = 500


def check_pairs(prompt: list[dict]) -> None:
    """Each assistant tool call is followed by its results, in order; no result stands alone."""
    i = 0
    while i < len(prompt):
        message = prompt[i]
        assert message["role"] != "tool", f"tool result without its call at {i}"
        calls = message.get("tool_calls") or []
        results = prompt[i + 1 : i + 1 + len(calls)]
        assert [r["role"] for r in results] == ["tool"] * len(calls), f"call without result at {i}"
        assert [r["tool_call_id"] for r in results] == [c["id"] for c in calls]
        i += 1 + len(calls)


def test_500_turns_stay_within_the_window_with_calls_beside_their_results(
    run_agent, call, events
) -> None:
    sizes: list[int] = []

    def policy(prompt, tools):
        sizes.append(sum(approx_tokens(m) for m in prompt))
        assert [m["role"] for m in prompt[:2]] == ["system", "user"]
        check_pairs(prompt)
        n = len(sizes)
        if n % 7 == 0:
            return {"content": f"thinking about turn {n}"}
        code = f"print({n}, 'x' * {n % 11 * 40})"
        calls = [call("python", code=code)] * (2 if n % 5 == 0 else 1)
        return {"content": None, "tool_calls": calls}

    started = time.monotonic()
    run, status, _ = run_agent(ScriptedModel(policy), steps=TURNS, context_window=WINDOW)
    elapsed = time.monotonic() - started
    assert status == "step_limit" and len(sizes) == TURNS
    assert max(sizes) <= WINDOW
    assert events(run, "truncation"), "a run this long must have been truncated"
    assert len(events(run, "observation")) > TURNS  # nothing lost from the record itself
    print(f"\n{TURNS} turns in {elapsed:.1f}s; largest prompt {max(sizes)} tokens")
