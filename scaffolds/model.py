"""One model client over litellm: any litellm model string, retries, usage and cost."""

from __future__ import annotations

import os
import random
import re
import threading
import time
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, Field

from scaffolds.messages import (
    CallCut,
    CallLimits,
    ContextWindowExceeded,
    ModelError,
    ModelResponse,
    ToolCall,
    Usage,
)
from scaffolds.protocols import Message, Model
from scaffolds.retry import RetryPolicy, call_with_retries

_CONTEXT_PATTERNS = re.compile(
    r"context length|context window|maximum context|prompt is too long|too many tokens"
    r"|exceeds the (?:model's )?(?:max|maximum)|context_length_exceeded",
    re.IGNORECASE,
)


class ModelConfig(BaseModel):
    """How to reach a model. CLI flags map onto these fields one to one."""

    model: str = Field(description="Any litellm model string, or replay:FILE.jsonl")
    api_base: str | None = Field(None, description="Base URL of an OpenAI-compatible server")
    temperature: float | None = Field(
        None, description="Sampling temperature, if the provider takes one"
    )
    reasoning_effort: str | None = Field(
        None, description="low / medium / high, for reasoning models"
    )
    max_output_tokens: int | None = Field(None, description="Cap on tokens per reply")
    context_window: int | None = Field(
        None,
        description="Input window in tokens; overrides litellm's model info (needed for local models)",
    )
    request_timeout_s: float = Field(600.0, description="Timeout of one HTTP request")
    max_attempts: int = Field(
        6, description="Tries per call for transient errors (429, 5xx, timeouts)"
    )
    retry_base_delay_s: float = Field(
        1.0, description="First backoff step; doubles each retry, jittered"
    )
    retry_max_delay_s: float = Field(60.0, description="Largest single backoff wait")


def _litellm() -> Any:
    """Import litellm without letting it fetch its price map from the network."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.telemetry = False
    litellm.suppress_debug_info = True
    return litellm


def is_transient(exc: BaseException) -> bool:
    """Rate limits, server errors, timeouts and dropped connections are worth retrying."""
    import openai

    if isinstance(exc, openai.APITimeoutError | openai.APIConnectionError | openai.RateLimitError):
        return True
    status = getattr(exc, "status_code", None)
    return isinstance(status, int) and (status == 429 or status >= 500)


class ServerWatch(Protocol):
    """A model server the harness itself started (``scaffolds.local_llm.LocalLLM``)."""

    def failure(self) -> str | None:
        """Why the server cannot answer (it died, or it hangs), or None while it is healthy."""
        ...


def one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:400]}"


class LiteLLMModel:
    """Calls ``litellm.completion`` with no hidden retries of its own; ours are bounded and timed."""

    def __init__(
        self,
        config: ModelConfig,
        rng: random.Random | None = None,
        watch: ServerWatch | None = None,
    ):
        """``watch``: the server behind ``api_base`` when the harness started it; a failed
        request then asks it whether the server is gone, and a dead server is not retried."""
        self.config = config
        self.name = config.model
        self.watch = watch
        self.policy = RetryPolicy(
            max_attempts=config.max_attempts,
            base_delay_s=config.retry_base_delay_s,
            max_delay_s=config.retry_max_delay_s,
            rng=rng or random.Random(0),
        )

    def warm_up(self) -> None:
        """Import litellm now: its first import takes seconds (tens on a busy machine), which
        a run's clocks should not count."""
        _litellm()

    def _info(self) -> dict[str, Any]:
        """litellm's model info (window, output limit, prices), or {} when it has none."""
        try:
            info: dict[str, Any] = _litellm().get_model_info(self.config.model)
        except Exception:
            return {}
        return info

    def context_window(self) -> int | None:
        if self.config.context_window:
            return self.config.context_window
        info = self._info()
        return info.get("max_input_tokens") or info.get("max_tokens")

    def max_output_tokens(self) -> int | None:
        """The cap on a reply's tokens: ``max_output_tokens``, else the model's own limit where
        litellm knows it (None: the provider's default)."""
        if self.config.max_output_tokens:
            return self.config.max_output_tokens
        limit = self._info().get("max_output_tokens")
        return int(limit) if limit else None

    def cost_bound(self, prompt_tokens: int) -> float | None:
        """The most one request of ``prompt_tokens`` tokens can cost at the model's listed
        prices, its reply at the output cap; None when a price or the cap is unknown."""
        info = self._info()
        price_in, price_out = info.get("input_cost_per_token"), info.get("output_cost_per_token")
        out = self.max_output_tokens()
        if price_in is None or price_out is None or out is None:
            return None
        return float(prompt_tokens * price_in + out * price_out)

    def _kwargs(
        self, messages: list[Message], tools: list[dict[str, Any]] | None, tool_choice: Any
    ) -> dict[str, Any]:
        c = self.config
        kwargs: dict[str, Any] = {
            "model": c.model,
            "messages": messages,
            "timeout": c.request_timeout_s,
            "num_retries": 0,
            "max_retries": 0,
            "drop_params": True,
        }
        if tools:
            kwargs["tools"] = tools
            if tool_choice is not None:
                kwargs["tool_choice"] = tool_choice
        if c.api_base:
            kwargs["api_base"] = c.api_base
            if c.model.startswith("openai/") and not os.environ.get("OPENAI_API_KEY"):
                kwargs["api_key"] = "no-key-needed"
        for key, value in (
            ("temperature", c.temperature),
            ("reasoning_effort", c.reasoning_effort),
            ("max_tokens", self.max_output_tokens()),
        ):
            if value is not None:
                kwargs[key] = value
        return kwargs

    def complete(
        self,
        messages: list[Message],
        tools: list[dict[str, Any]] | None = None,
        tool_choice: str | dict[str, Any] | None = None,
        limits: CallLimits | None = None,
    ) -> ModelResponse:
        """One reply, retried on transient errors. With ``limits`` each request's timeout is cut
        to what is left of them and enforced by the harness itself (a request still running at
        that moment is abandoned, whatever the server does): ``CallCut`` then."""
        started = time.monotonic()
        litellm = _litellm()
        kwargs = self._kwargs(messages, tools, tool_choice)
        limits = limits or CallLimits()
        spent = time.monotonic() - started  # the first import of litellm takes seconds

        def attempt() -> Any:
            nonlocal spent
            began = time.monotonic()
            allowed = limits.attempt_s(spent, began)
            if allowed <= 0:
                raise CallCut("no time was left for another request")
            try:
                return _within(allowed, litellm.completion, {**kwargs, "timeout": min(
                    self.config.request_timeout_s, allowed)})  # fmt: skip
            finally:
                spent += time.monotonic() - began

        try:
            outcome = call_with_retries(
                attempt, self.policy, self._worth_retrying, deadline=limits.wall_deadline
            )
        except CallCut:
            raise
        except litellm.ContextWindowExceededError as exc:
            raise ContextWindowExceeded(one_line(exc)) from exc
        except Exception as exc:
            if _CONTEXT_PATTERNS.search(str(exc)):
                raise ContextWindowExceeded(one_line(exc)) from exc
            failure = self.watch.failure() if self.watch is not None else None
            raise ModelError(failure or f"{self.name}: {one_line(exc)}") from exc
        response = outcome.value
        result = _parse(response, _cost(litellm, response))
        result.retry_wait_s = outcome.waited_s
        result.latency_s = time.monotonic() - started - outcome.waited_s
        return result

    def _worth_retrying(self, exc: BaseException) -> bool:
        return is_transient(exc) and (self.watch is None or self.watch.failure() is None)


def _within(seconds: float, fn: Any, kwargs: dict[str, Any]) -> Any:
    """``fn(**kwargs)``, or ``CallCut`` once ``seconds`` have passed: the request runs in a
    daemon thread, so no server, however slow it trickles, holds the run past its limit."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn(**kwargs)
        except BaseException as exc:  # handed to the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=run, name="model-request", daemon=True)
    thread.start()
    thread.join(None if seconds == float("inf") else max(0.0, seconds))
    if thread.is_alive():
        raise CallCut(f"the request was still running when its {seconds:.0f}s ran out")
    if "error" in box:
        raise box["error"]
    return box["value"]


def _cost(litellm: Any, response: Any) -> float | None:
    try:
        cost = litellm.completion_cost(completion_response=response)
    except Exception:
        return None
    return float(cost) if cost else None


def _parse(response: Any, cost: float | None) -> ModelResponse:
    message = response.choices[0].message
    calls = [
        ToolCall(
            id=tc.id or f"call_{i}",
            name=tc.function.name or "",
            arguments=tc.function.arguments or "",
        )
        for i, tc in enumerate(getattr(message, "tool_calls", None) or [])
    ]
    u = getattr(response, "usage", None)
    details = getattr(u, "completion_tokens_details", None)
    usage = Usage(
        prompt_tokens=int(getattr(u, "prompt_tokens", 0) or 0),
        completion_tokens=int(getattr(u, "completion_tokens", 0) or 0),
        reasoning_tokens=int(getattr(details, "reasoning_tokens", 0) or 0),
        cost_usd=cost,
    )
    return ModelResponse(
        content=message.content,
        tool_calls=calls,
        usage=usage,
        reasoning_content=getattr(message, "reasoning_content", None),
        finish_reason=getattr(response.choices[0], "finish_reason", None),
        provider_model=getattr(response, "model", None) or None,
    )


def make_model(
    config: ModelConfig, record: Path | None = None, rng: random.Random | None = None
) -> Model:
    """``replay:FILE`` gives the replay model; anything else goes to litellm. ``record`` wraps either."""
    from scaffolds.replay import RecordingModel, ReplayModel

    model: Model
    if config.model.startswith("replay:"):
        model = ReplayModel(Path(config.model.removeprefix("replay:")))
    else:
        model = LiteLLMModel(config, rng)
    return RecordingModel(model, record) if record is not None else model
