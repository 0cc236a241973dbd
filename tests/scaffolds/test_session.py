"""ModelSession: window fitting, provider refusals, usage and budget accounting."""

from __future__ import annotations

from typing import Any

import pytest

from scaffolds import (
    Budget,
    ContextWindowExceeded,
    ModelResponse,
    ModelSession,
    RunRecord,
    ScriptedModel,
    Usage,
)
from scaffolds.context import approx_tokens
from scaffolds.messages import ModelError, ModelExhausted
from scaffolds.replay import ReplayModel


def conversation(n: int) -> list[dict[str, Any]]:
    msgs: list[dict[str, Any]] = [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "task"},
    ]
    msgs += [{"role": "assistant", "content": "x" * 1000} for _ in range(n)]
    return msgs


def test_provider_refusal_truncates_and_retries(tmp_path) -> None:
    sent: list[int] = []

    def policy(messages: list[dict[str, Any]], tools: Any) -> dict[str, Any]:
        size = sum(approx_tokens(m) for m in messages)
        sent.append(size)
        if size > 2000:
            raise ContextWindowExceeded("maximum context length is 2000 tokens")
        return {
            "role": "assistant",
            "content": "fits",
            "usage": {"prompt_tokens": size, "completion_tokens": 2},
        }

    record = RunRecord(tmp_path)
    session = ModelSession(ScriptedModel(policy), record, Budget(60))
    response = session.call(conversation(40))
    assert response.content == "fits"
    assert sent[0] > 2000 and sent[-1] <= 2000
    events = [e for e in record.events() if e["kind"] == "truncation"]
    assert events and events[0]["reason"].startswith("provider refused")
    assert session.usage.completion_tokens == 2


def test_window_is_applied_before_sending(tmp_path) -> None:
    seen: list[list[dict[str, Any]]] = []

    def policy(messages: list[dict[str, Any]], tools: Any) -> dict[str, Any]:
        seen.append(messages)
        return {"role": "assistant", "content": "ok"}

    session = ModelSession(
        ScriptedModel(policy), RunRecord(tmp_path), Budget(60), window=3000, reserve=500
    )
    session.call(conversation(100))
    assert sum(approx_tokens(m) for m in seen[0]) <= 2500


def test_usage_cost_and_retry_wait_reach_budget(tmp_path) -> None:
    def policy(messages: Any, tools: Any) -> ModelResponse:
        return ModelResponse("ok", usage=Usage(10, 5, 1, 0.25), retry_wait_s=3.0)

    budget = Budget(100)
    session = ModelSession(ScriptedModel(policy), RunRecord(tmp_path), budget)
    session.call(conversation(1))
    session.call(conversation(1))
    assert session.usage == Usage(20, 10, 2, 0.5)
    assert budget.cost_usd == 0.5 and budget.excluded_s == 6.0
    calls = [e for e in RunRecord(tmp_path).events() if e["kind"] == "model_call"]
    assert [c["usage"]["prompt_tokens"] for c in calls] == [10, 10]


def test_endless_refusals_end_with_a_model_error(tmp_path) -> None:
    def policy(messages: Any, tools: Any) -> dict[str, Any]:
        raise ContextWindowExceeded("too long, always")

    session = ModelSession(ScriptedModel(policy), RunRecord(tmp_path), Budget(60))
    with pytest.raises(ModelError, match="still too long"):
        session.call(conversation(5))


def test_replay_exhaustion_and_malformed_files(tmp_path) -> None:
    cassette = tmp_path / "c.jsonl"
    cassette.write_text('{"role": "assistant", "content": "only one"}\n')
    model = ReplayModel(cassette)
    assert model.complete([]).content == "only one"
    with pytest.raises(ModelExhausted, match="no response left"):
        model.complete([])
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"role": "assistant", "content": "ok"}\nnot json\n')
    with pytest.raises(ModelError, match=r"bad.jsonl:2"):
        ReplayModel(bad)
    with pytest.raises(ModelError, match="not found"):
        ReplayModel(tmp_path / "missing.jsonl")
