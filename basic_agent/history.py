"""The conversation as chat messages, and how it is rebuilt from ``trajectory.jsonl`` on resume.

Each message the agent keeps comes from exactly one trajectory event:

- ``message`` (``purpose``: system, task, continue, resumed): the message itself;
- ``model_call`` with ``purpose`` ``step``: the assistant reply (``message``);
- ``observation``: a tool result, ``text`` being exactly what the model read.

A ``checkpoint`` event closes each completed step; a ``start`` event opens each process. The
messages of a step that was not checkpointed before the next ``start`` (the process was killed
in the middle of it) are dropped, so that step is done again and no completed step is lost.
An observation that ended the run (``submitted``) in a checkpointed step means the run is over:
a kill between that step and the run's end leaves nothing to redo but the end itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from scaffolds.protocols import Message


def tool_message(call_id: str, content: str) -> Message:
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def normalize_reply(reply: Message, step: int) -> Message:
    """The reply as it is kept and sent back: text content never null without tool calls, and
    every tool call with an id unique within the reply (``call_<step>_<i>`` where the model gave
    none or repeated one), so that each result can name its call."""
    calls = reply.get("tool_calls")
    if not calls:
        return reply if reply.get("content") is not None else {**reply, "content": ""}
    seen: set[str] = set()
    fixed = []
    for i, call in enumerate(calls):
        if not call.get("id") or call["id"] in seen:
            call = {**call, "id": f"call_{step}_{i}"}
        seen.add(call["id"])
        fixed.append(call)
    return {**reply, "tool_calls": fixed}


def committed_history(events: Iterable[dict[str, Any]]) -> tuple[list[Message], int]:
    """The messages of every checkpointed step, and how many model calls (steps) they hold."""
    history: list[Message] = []
    steps = 0
    pending: list[Message] = []
    pending_steps = 0
    for event in events:
        kind = event.get("kind")
        if kind == "start":
            pending, pending_steps = [], 0
        elif kind == "message":
            pending.append(event["message"])
        elif kind == "model_call" and event.get("purpose") == "step":
            pending_steps += 1
            pending.append(normalize_reply(event["message"], steps + pending_steps))
        elif kind == "observation":
            pending.append(tool_message(event["tool_call_id"], event["text"]))
        elif kind == "checkpoint":
            history += pending
            steps += pending_steps
            pending, pending_steps = [], 0
    return history, steps


def answered(events: Iterable[dict[str, Any]]) -> bool:
    """Whether a checkpointed step holds an accepted ``answer`` (an observation ``submitted``)."""
    pending = done = False
    for event in events:
        kind = event.get("kind")
        if kind == "start":
            pending = False
        elif kind == "observation" and event.get("submitted"):
            pending = True
        elif kind == "checkpoint":
            done = done or pending
    return done
