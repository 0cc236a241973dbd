"""Plain data for model calls: usage, responses, and the errors a model can raise."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Usage:
    """Tokens and cost of one call (or a sum of calls)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    cost_usd: float | None = None
    """None when the provider's price is unknown; a sum stays None only if every part was."""

    def __add__(self, other: Usage) -> Usage:
        if self.cost_usd is None and other.cost_usd is None:
            cost = None
        else:
            cost = (self.cost_usd or 0.0) + (other.cost_usd or 0.0)
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.reasoning_tokens + other.reasoning_tokens,
            cost,
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Usage:
        d = d or {}
        return cls(
            prompt_tokens=int(d.get("prompt_tokens") or 0),
            completion_tokens=int(d.get("completion_tokens") or 0),
            reasoning_tokens=int(d.get("reasoning_tokens") or 0),
            cost_usd=d.get("cost_usd"),
        )


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: str
    """The raw JSON string the model produced; parsing (and its errors) is the scaffold's job."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments},
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ToolCall:
        fn = d.get("function") or {}
        args = fn.get("arguments", "")
        if not isinstance(args, str):
            args = json.dumps(args)
        return cls(id=str(d.get("id") or ""), name=str(fn.get("name") or ""), arguments=args)


@dataclass
class ModelResponse:
    """One assistant message with what it cost."""

    content: str | None
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    retry_wait_s: float = 0.0
    """Seconds spent sleeping between retries; budgets exclude this from the agent's time."""
    latency_s: float = 0.0
    reasoning_content: str | None = None
    finish_reason: str | None = None
    """``length`` when the reply hit the output-token cap and was cut there."""
    provider_model: str | None = None
    """The model name the provider's response reports (it may differ from the one asked for)."""

    def message(self) -> dict[str, Any]:
        """The OpenAI chat message to append to the conversation."""
        msg: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            msg["tool_calls"] = [tc.to_dict() for tc in self.tool_calls]
        return msg

    def to_record(self) -> dict[str, Any]:
        """The line written by ``--record``: the message plus its usage (and the provider's
        model name, when it reported one)."""
        named = {"model": self.provider_model} if self.provider_model else {}
        return {**self.message(), "usage": self.usage.to_dict(), **named}

    @classmethod
    def from_record(cls, d: dict[str, Any]) -> ModelResponse:
        return cls(
            content=d.get("content"),
            tool_calls=[ToolCall.from_dict(tc) for tc in d.get("tool_calls") or []],
            usage=Usage.from_dict(d.get("usage")),
            provider_model=d.get("model") if isinstance(d.get("model"), str) else None,
        )


class ModelError(Exception):
    """A model call failed for good (auth, bad request, unknown model, retries spent)."""


class ModelExhausted(ModelError):
    """A replay or scripted model has no responses left. Scaffolds end with ``model_exhausted``."""


class ContextWindowExceeded(ModelError):
    """The provider refused the prompt as too long; callers truncate and retry."""


class CallCut(Exception):
    """The harness stopped a model call at its limit (``CallLimits``): not a model error, the
    run's time (or wall clock) ran out while the call was on."""

    waited_s: float = 0.0
    """Seconds the call spent waiting between retries before it was cut (not the agent's)."""


@dataclass(frozen=True)
class CallLimits:
    """How long one model call may take, retries included."""

    request_s: float | None = None
    """Seconds of requests in flight, in all (retry waits not counted: they are not charged to
    the agent's time either)."""
    wall_deadline: float | None = None
    """Nothing past this ``time.monotonic()`` value, retry waits included."""

    def attempt_s(self, spent_s: float, now: float) -> float:
        """How long the next attempt may take, after ``spent_s`` seconds of requests."""
        left = float("inf") if self.request_s is None else self.request_s - spent_s
        if self.wall_deadline is not None:
            left = min(left, self.wall_deadline - now)
        return left
