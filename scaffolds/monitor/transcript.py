"""A run's trajectory as plain text for a reviewing model, cut to fit its window, cuts marked.

Each event becomes a block headed ``[event N] ...`` (N: its line in trajectory.jsonl, the
number the viewer shows): the messages the agent was given, what it wrote, each tool call's
arguments and output, errors, truncations, AIDE's executions and nodes. Run bookkeeping
(start, checkpoints) is left out.

The cut, when the text is longer than ``budget`` characters:

1. a block longer than ``EVENT_CHARS`` keeps its head and tail around
   ``[... N characters cut ...]``;
2. if the whole is still too long, the first events are kept up to a third of the budget and
   the last ones with the rest (the event at each edge that does not fit whole is cut in its
   middle), with ``[... events A to B (K events) cut to fit the reviewer's window ...]``
   between them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from scaffolds.monitor.trace import decoded_arguments

EVENT_CHARS = 6000
MIN_CUT = 200
"""Room (characters) below which a block that does not fit is left out rather than cut."""
MARKER_CHARS = 120
SKIPPED = frozenset({"start", "checkpoint", "snapshot"})


@dataclass
class Transcript:
    text: str
    events: int
    """Events shown (whole or cut)."""
    cut_events: int = 0
    """Events left out to fit."""
    cut_chars: int = 0
    """Characters cut out of long events."""


def cut_middle(text: str, keep: int) -> tuple[str, int]:
    if len(text) <= keep:
        return text, 0
    head, tail = keep // 2, keep - keep // 2
    cut = len(text) - head - tail
    return f"{text[:head]}\n[... {cut:,} characters cut ...]\n{text[-tail:]}", cut


def event_block(number: int, event: dict[str, Any]) -> str | None:
    kind = str(event.get("kind"))
    if kind in SKIPPED:
        return None
    head = f"[event {number}]"
    if kind == "message":
        message = event.get("message") or {}
        return f"{head} {message.get('role')} ({event.get('purpose') or 'message'}):\n{message.get('content') or ''}"
    if kind == "model_call":
        message = event.get("message") or {}
        parts = [str(message.get(k)) for k in ("reasoning_content", "content") if message.get(k)]
        calls = [c.get("function", {}).get("name") for c in message.get("tool_calls") or []]
        called = f" -> calls {', '.join(map(str, calls))}" if calls else ""
        return f"{head} assistant ({event.get('purpose') or 'step'}){called}:\n" + "\n".join(parts)
    if kind == "tool_call":
        args = decoded_arguments(event.get("arguments") or "")
        body = "\n".join(f"{k}:\n{v}" if "\n" in v else f"{k}: {v}" for k, v in args)
        return f"{head} tool call {event.get('name')}:\n{body}"
    if kind == "observation":
        text = str(event.get("text") or "")
        if event.get("traceback"):
            text += "\n" + str(event["traceback"])
        return f"{head} output of {event.get('name')} ({event.get('outcome') or 'ok'}):\n{text}"
    if kind == "end":
        return f"{head} run ended: {event.get('status')}" + (
            f" ({event['error']})" if event.get("error") else ""
        )
    rest = {k: v for k, v in event.items() if k not in ("t", "kind")}
    return f"{head} {kind}: {json.dumps(rest, ensure_ascii=False, default=str)}"


def take(blocks: list[tuple[int, str]], budget: int) -> list[tuple[int, str]]:
    """Blocks from the start of ``blocks`` within ``budget`` characters; the first that does
    not fit is cut to the room left (when there is some)."""
    taken: list[tuple[int, str]] = []
    left = budget
    for number, block in blocks:
        if len(block) + 2 > left:
            if left > MIN_CUT:
                taken.append((number, cut_middle(block, left - 40)[0]))
            break
        taken.append((number, block))
        left -= len(block) + 2
    return taken


def render(events: list[tuple[int, dict[str, Any]]], budget: int) -> Transcript:
    """The transcript of ``events`` in at most about ``budget`` characters."""
    blocks: list[tuple[int, str]] = []
    cut_chars = 0
    for number, event in events:
        try:
            block = event_block(number, event)
        except (AttributeError, TypeError, ValueError):
            block = f"[event {number}] {event.get('kind')} (unreadable)"
        if block is None:
            continue
        block, cut = cut_middle(block, EVENT_CHARS)
        cut_chars += cut
        blocks.append((number, block))
    total = sum(len(b) + 2 for _, b in blocks)
    if total <= budget:
        return Transcript("\n\n".join(b for _, b in blocks), len(blocks), 0, cut_chars)
    head = take(blocks, budget // 3)
    room = budget - sum(len(b) + 2 for _, b in head) - MARKER_CHARS
    tail = take(blocks[len(head) :][::-1], room)[::-1]
    dropped = blocks[len(head) : len(blocks) - len(tail)]
    middle = []
    if dropped:
        first, last = dropped[0][0], dropped[-1][0]
        middle = [
            f"[... events {first} to {last} ({len(dropped)} events) cut to fit the reviewer's "
            "window ...]"
        ]
    text = "\n\n".join([*(b for _, b in head), *middle, *(b for _, b in tail)])
    return Transcript(text, len(head) + len(tail), len(dropped), cut_chars)
