"""Context truncation: keep a conversation within the model's input window.

The system message and the first user message (the task) are always kept. The rest is split into
units, where an assistant message with tool calls and all of its tool results form one unit, and
the oldest units are dropped whole until the prompt fits. A single message too large on its own is
cut in the middle with a visible marker.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from scaffolds.protocols import Message

TokenCounter = Callable[[Message], int]

CUT_MARKER = "\n[... {n} characters cut to fit the context window ...]\n"
DROPPED_NOTE = "[{n} earlier messages were removed to fit the context window.]"


def approx_tokens(message: Message) -> int:
    """A fast, slightly pessimistic count (about 3.5 characters per token, plus overhead)."""
    size = len(str(message.get("content") or ""))
    for call in message.get("tool_calls") or []:
        size += len(json.dumps(call))
    return size * 2 // 7 + 8


def litellm_counter(model: str) -> TokenCounter:
    """Count with litellm's tokenizer for ``model``; falls back to the approximation on failure."""
    from scaffolds.model import _litellm

    litellm = _litellm()

    def count(message: Message) -> int:
        try:
            return int(litellm.token_counter(model=model, messages=[message]))
        except Exception:
            return approx_tokens(message)

    return count


@dataclass
class Truncation:
    """What one fit did, for the ``truncation`` event."""

    dropped_messages: int
    cut_messages: int
    tokens_before: int
    tokens_after: int

    def happened(self) -> bool:
        return bool(self.dropped_messages or self.cut_messages)


def split_units(messages: list[Message]) -> list[list[Message]]:
    """Group messages so that tool calls never part from their results."""
    units: list[list[Message]] = []
    for msg in messages:
        if msg.get("role") == "tool" and units and _open_calls(units[-1]):
            units[-1].append(msg)
        else:
            units.append([msg])
    return units


def _open_calls(unit: list[Message]) -> bool:
    head = unit[0]
    return head.get("role") == "assistant" and bool(head.get("tool_calls"))


def _head_size(messages: list[Message]) -> int:
    """How many leading messages are pinned: system message(s), then the first user message."""
    i = 0
    while i < len(messages) and messages[i].get("role") == "system":
        i += 1
    if i < len(messages) and messages[i].get("role") == "user":
        i += 1
    return i


def cut_middle(text: str, keep_chars: int) -> str:
    if len(text) <= keep_chars:
        return text
    keep_chars = max(keep_chars, 0)
    head = keep_chars // 2
    tail = keep_chars - head
    return (
        text[:head] + CUT_MARKER.format(n=len(text) - keep_chars) + (text[-tail:] if tail else "")
    )


def fit(
    messages: list[Message],
    limit: int,
    count: TokenCounter = approx_tokens,
    sizes: list[int] | None = None,
) -> tuple[list[Message], Truncation]:
    """Return a copy of ``messages`` whose total count is at most ``limit`` tokens.

    ``sizes`` (the count of each message, if the caller keeps them) saves recounting.
    """
    sizes = sizes if sizes is not None else [count(m) for m in messages]
    before = sum(sizes)
    if before <= limit:
        return list(messages), Truncation(0, 0, before, before)

    pinned = _head_size(messages)
    head, rest = list(messages[:pinned]), messages[pinned:]
    units = split_units(rest)
    unit_sizes, i = [], pinned
    for unit in units:
        unit_sizes.append(sum(sizes[i : i + len(unit)]))
        i += len(unit)

    note_size = count({"role": "user", "content": DROPPED_NOTE.format(n=len(rest))})
    total = sum(sizes[:pinned]) + sum(unit_sizes) + note_size
    first, dropped = 0, 0
    while total > limit and first < len(units) - 1:  # always keep the newest unit
        total -= unit_sizes[first]
        dropped += len(units[first])
        first += 1
    kept = [m for unit in units[first:] for m in unit]
    out = (
        head
        + ([{"role": "user", "content": DROPPED_NOTE.format(n=dropped)}] if dropped else [])
        + kept
    )

    cut = 0
    while sum(count(m) for m in out) > limit:
        sizes_now = [count(m) for m in out]
        big = max(range(len(out)), key=lambda j: sizes_now[j])
        content = out[big].get("content")
        if not isinstance(content, str) or not content:
            break  # nothing left to cut (e.g. only tool-call arguments); the provider decides
        excess = sum(sizes_now) - limit
        ratio = max(0.0, 1 - (excess + 16) / max(sizes_now[big], 1))
        keep = int(len(content) * ratio) - len(CUT_MARKER)
        if keep >= len(content):
            keep = len(content) - 64
        out[big] = {**out[big], "content": cut_middle(content, keep)}
        cut += 1
        if keep <= 0:
            break
    after = sum(count(m) for m in out)
    return out, Truncation(dropped, cut, before, after)
