"""Every model call a scaffold makes goes through here: fit the window, charge the budget, record usage."""

from __future__ import annotations

import json
import re
import threading
from typing import Any

from scaffolds.budget import Budget, LimitReached
from scaffolds.context import TokenCounter, approx_tokens, fit
from scaffolds.messages import (
    CallCut,
    CallLimits,
    ContextWindowExceeded,
    ModelError,
    ModelResponse,
    Usage,
)
from scaffolds.protocols import Message, Model, PricedModel
from scaffolds.record import RunRecord

MODEL_GRACE_S = 10.0
"""A model request may run this long past the agent's time left, for its reply to arrive."""
COST_ESTIMATE_MARGIN = 1.1
"""Prompt token counts are estimates: the cost check counts this many times as many."""

SHRINK_ON_PROVIDER_REFUSAL = 0.5
"""Without a stated limit in the provider's error, each refusal halves the prompt."""
MARGIN_UNDER_STATED_LIMIT = 0.85
"""Our token counts are estimates: aim this far under a limit the provider states."""
MAX_REFUSALS = 4
_STATED_LIMIT = re.compile(
    r"(?:context length|context window|limit) (?:is|of) (\d[\d,]*) tokens", re.I
)


def next_limit(current: int, error: str) -> int:
    """A smaller token limit after the provider refused ``current`` tokens with ``error``."""
    stated = _STATED_LIMIT.search(error)
    if stated:
        return int(
            min(current * 0.9, int(stated.group(1).replace(",", "")) * MARGIN_UNDER_STATED_LIMIT)
        )
    return int(current * SHRINK_ON_PROVIDER_REFUSAL)


class ModelSession:
    """A model bound to one run's record and budget.

    ``window`` is the model's input window in tokens (None: unknown, send as is until the provider
    refuses). ``reserve`` tokens are kept free for the reply.
    """

    def __init__(
        self,
        model: Model,
        record: RunRecord,
        budget: Budget,
        window: int | None = None,
        reserve: int = 4096,
        count: TokenCounter = approx_tokens,
    ):
        self.model = model
        self.record = record
        self.budget = budget
        self.limit = None if window is None else max(256, window - min(reserve, window // 4))
        self.count = count
        self.usage = Usage()
        self.calls = 0
        self._sizes: dict[int, tuple[Message, int]] = {}
        self._lock = threading.Lock()  # several search nodes may call at once

    def _size(self, message: Message) -> int:
        """Token count of a message, counted once per message object."""
        hit = self._sizes.get(id(message))
        if hit is not None and hit[0] is message:
            return hit[1]
        n = self.count(message)
        self._sizes[id(message)] = (message, n)
        return n

    def _fit(self, messages: list[Message], limit: int | None, reason: str) -> list[Message]:
        if limit is None:
            return messages
        sizes = [self._size(m) for m in messages]
        self._sizes = {id(m): (m, n) for m, n in zip(messages, sizes, strict=True)}  # stays bounded
        prompt, trunc = fit(messages, limit, self.count, sizes)
        if trunc.happened():
            self.record.event(
                "truncation",
                reason=reason,
                limit_tokens=limit,
                dropped_messages=trunc.dropped_messages,
                cut_messages=trunc.cut_messages,
                tokens_before=trunc.tokens_before,
                tokens_after=trunc.tokens_after,
            )
        return prompt

    def call(
        self,
        messages: list[Message],
        tools: list[dict[str, Any]] | None = None,
        tool_choice: str | dict[str, Any] | None = None,
        purpose: str = "step",
    ) -> ModelResponse:
        limit = self.limit
        if limit is not None and tools:
            # the tool schemas travel with every prompt and take their share of the window
            limit = max(256, limit - approx_tokens({"content": json.dumps(tools)}))
        prompt = self._fit(messages, limit, "window")
        for refusal in range(MAX_REFUSALS + 1):
            self._check_affordable(prompt, tools, purpose)
            limits = CallLimits(
                self.budget.agent_time_left() + MODEL_GRACE_S, self.budget.wall_deadline()
            )
            try:
                response = self.model.complete(prompt, tools, tool_choice, limits=limits)
                break
            except CallCut as exc:
                self.budget.exclude(exc.waited_s)
                raise self._cut(exc, purpose) from exc
            except ContextWindowExceeded as exc:
                if refusal == MAX_REFUSALS:
                    raise ModelError(
                        f"prompt still too long after {refusal} truncations: {exc}"
                    ) from exc
                limit = next_limit(sum(self._size(m) for m in prompt), str(exc))
                self.limit = limit
                prompt = self._fit(messages, limit, f"provider refused: {exc}")
        with self._lock:
            self.calls += 1
            self.usage = self.usage + response.usage
            self.budget.exclude(response.retry_wait_s)
            self.budget.add_cost(response.usage.cost_usd)
        extra: dict[str, Any] = {"provider_model": response.provider_model}
        if response.finish_reason == "length":
            extra["cut"] = "max_output_tokens"
        self.record.event(
            "model_call",
            purpose=purpose,
            message=response.message(),
            usage=response.usage.to_dict(),
            latency_s=round(response.latency_s, 3),
            retry_wait_s=round(response.retry_wait_s, 3),
            prompt_messages=len(prompt),
            **extra,
        )
        return response

    def _cut(self, exc: CallCut, purpose: str) -> LimitReached:
        """Record a call the harness stopped at a limit; the run ends with that limit."""
        limit = "wall_limit" if self.budget.wall_left() <= 1.0 else "time_limit"
        self.record.event(
            "model_call_cut",
            purpose=purpose,
            limit=limit,
            reason=str(exc),
            agent_time_s=round(self.budget.elapsed(), 3),
            wall_time_s=round(self.budget.wall_elapsed(), 3),
        )
        return LimitReached(limit, f"the {limit.replace('_', ' ')} cut a model call: {exc}")

    def _check_affordable(
        self, prompt: list[Message], tools: list[dict[str, Any]] | None, purpose: str
    ) -> None:
        """Refuse (the run ends ``cost_limit``) a request the cost limit's remainder cannot pay
        for at the model's listed prices, with its reply at the output cap."""
        cap = self.budget.max_cost_usd
        if cap is None or not isinstance(self.model, PricedModel):
            return
        tokens = sum(self._size(m) for m in prompt)
        if tools:
            tokens += approx_tokens({"content": json.dumps(tools)})
        bound = self.model.cost_bound(int(tokens * COST_ESTIMATE_MARGIN))
        left = cap - self.budget.cost_usd
        if bound is not None and bound > left:
            self.record.event(
                "model_call_refused",
                purpose=purpose,
                limit="cost_limit",
                bound_usd=round(bound, 6),
                left_usd=round(left, 6),
            )
            raise LimitReached(
                "cost_limit",
                f"the next request could cost up to ${bound:.4f}, more than the ${left:.4f} "
                f"left of the ${cap:.2f} cost limit",
            )
