"""Every model call a scaffold makes goes through here: fit the window, charge the budget, record usage."""

from __future__ import annotations

import json
import re
from typing import Any

from scaffolds.budget import Budget
from scaffolds.context import TokenCounter, approx_tokens, fit
from scaffolds.messages import ContextWindowExceeded, ModelError, ModelResponse, Usage
from scaffolds.protocols import Message, Model
from scaffolds.record import RunRecord

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
            try:
                response = self.model.complete(prompt, tools, tool_choice)
                break
            except ContextWindowExceeded as exc:
                if refusal == MAX_REFUSALS:
                    raise ModelError(
                        f"prompt still too long after {refusal} truncations: {exc}"
                    ) from exc
                limit = next_limit(sum(self._size(m) for m in prompt), str(exc))
                self.limit = limit
                prompt = self._fit(messages, limit, f"provider refused: {exc}")
        self.calls += 1
        self.usage = self.usage + response.usage
        self.budget.exclude(response.retry_wait_s)
        self.budget.add_cost(response.usage.cost_usd)
        self.record.event(
            "model_call",
            purpose=purpose,
            message=response.message(),
            usage=response.usage.to_dict(),
            latency_s=round(response.latency_s, 3),
            retry_wait_s=round(response.retry_wait_s, 3),
            prompt_messages=len(prompt),
        )
        return response
