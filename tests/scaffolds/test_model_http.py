"""The litellm client against a scripted OpenAI-compatible server on loopback."""

from __future__ import annotations

import json
import random

import pytest

from scaffolds import ContextWindowExceeded, ModelConfig, ModelError
from scaffolds.model import LiteLLMModel, make_model
from scaffolds.replay import ReplayModel
from tests.scaffolds.fake_openai import Reply, fake_openai

MESSAGES = [{"role": "user", "content": "hi"}]


def client(url: str, **overrides: object) -> LiteLLMModel:
    config = ModelConfig(
        model="openai/fake-model",
        api_base=url,
        request_timeout_s=2.0,
        max_attempts=4,
        retry_base_delay_s=0.05,
        retry_max_delay_s=0.2,
        **overrides,  # type: ignore[arg-type]
    )
    return LiteLLMModel(config, random.Random(1))


def test_transient_errors_are_retried_and_waits_reported() -> None:
    with fake_openai(
        [Reply(status=429), Reply(status=500), Reply(status=503), Reply(content="done")]
    ) as srv:
        response = client(srv.url).complete(MESSAGES)
    assert response.content == "done"
    assert len(srv.requests) == 4
    assert response.retry_wait_s > 0
    assert response.usage.prompt_tokens == 11
    assert response.usage.completion_tokens == 7
    assert response.usage.reasoning_tokens == 3
    assert response.usage.cost_usd is None  # a model litellm cannot price: null, no crash


def test_slow_response_times_out_then_retries() -> None:
    with fake_openai([Reply(delay_s=3.5), Reply(content="second")]) as srv:
        response = client(srv.url).complete(MESSAGES)
    assert response.content == "second"
    assert len(srv.requests) == 2


def test_retries_are_bounded() -> None:
    with fake_openai([Reply(status=500)] * 10) as srv, pytest.raises(ModelError) as err:
        client(srv.url).complete(MESSAGES)
    assert len(srv.requests) == 4
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("status", [401, 400, 404])
def test_permanent_errors_fail_fast(status: int) -> None:
    with (
        fake_openai([Reply(status=status, error="nope")] * 5) as srv,
        pytest.raises(ModelError) as err,
    ):
        client(srv.url).complete(MESSAGES)
    assert len(srv.requests) == 1  # no retry, so no backoff wait either
    assert "\n" not in str(err.value)
    assert not isinstance(err.value, ContextWindowExceeded)


def test_context_length_error_is_typed() -> None:
    error = (
        "This model's maximum context length is 2048 tokens. However, you requested 9000 tokens."
    )
    with fake_openai([Reply(status=400, error=error)]) as srv, pytest.raises(ContextWindowExceeded):
        client(srv.url).complete(MESSAGES)
    assert len(srv.requests) == 1


def test_tools_temperature_and_tool_calls_pass_through() -> None:
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "python", "arguments": '{"code": "1+1"}'},
    }
    tools = [
        {
            "type": "function",
            "function": {
                "name": "python",
                "parameters": {"type": "object", "properties": {"code": {"type": "string"}}},
            },
        }
    ]
    with fake_openai([Reply(content=None, tool_calls=[call])]) as srv:
        response = client(srv.url, temperature=0.3).complete(
            MESSAGES, tools=tools, tool_choice="auto"
        )
    sent = srv.requests[0]
    assert sent["tools"][0]["function"]["name"] == "python"
    assert sent["temperature"] == 0.3
    assert response.tool_calls[0].name == "python"
    assert json.loads(response.tool_calls[0].arguments) == {"code": "1+1"}


def test_record_then_replay_gives_identical_messages(tmp_path) -> None:
    call = {
        "id": "c9",
        "type": "function",
        "function": {"name": "bash", "arguments": '{"command": "ls"}'},
    }
    cassette = tmp_path / "cassette.jsonl"
    with fake_openai([Reply(content="first"), Reply(content=None, tool_calls=[call])]) as srv:
        config = ModelConfig(model="openai/fake-model", api_base=srv.url, request_timeout_s=2.0)
        recording = make_model(config, record=cassette)
        live = [recording.complete(MESSAGES), recording.complete(MESSAGES)]
    lines = [json.loads(line) for line in cassette.read_text().splitlines()]
    assert [line["role"] for line in lines] == ["assistant", "assistant"]
    assert lines[1]["tool_calls"][0]["function"]["arguments"] == '{"command": "ls"}'
    replay = ReplayModel(cassette)
    replayed = [replay.complete([]), replay.complete([])]
    assert [r.message() for r in replayed] == [r.message() for r in live]
    assert [r.usage for r in replayed] == [r.usage for r in live]
