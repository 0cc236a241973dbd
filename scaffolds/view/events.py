"""Trajectory events as transcript items: a kind to filter by, a title line, a few facts, and
text blocks (folded on the page when long).

An item keeps its event's number ``i`` (its 0-based line in ``trajectory.jsonl``): that is the
number a monitor's evidence names. The text a monitor quotes from an event is the text of one
of its item's blocks (a message's content, a tool call's arguments, an observation's text, a
traceback), exactly as recorded.

Kinds: ``message``, ``reminder`` (the nudges and resume notes a loop sends), ``model_call``,
``tool_call``, ``observation``, ``truncation``, ``error``, AIDE's ``execution`` and ``node``,
``checkpoint`` (a step's end; hidden on the page until asked for) and ``run`` (start, end,
resume). Tags cut across kinds: ``error`` (a failed tool
call, a script that raised, a harness error, a run that ended with an error) and ``retry`` (a
model call that waited out transient errors, or AIDE's format retry).
"""

from __future__ import annotations

import json
import re
from typing import Any

from scaffolds.timefmt import format_seconds

REMINDER_PURPOSES = frozenset({"continue", "resumed"})
RUN_KINDS = frozenset({"start", "end", "checkpoint", "resume"})
BUDGET_LINE = re.compile(r"\n(\[[^\[\]\n]*\btime left\b[^\[\]\n]*\])\s*$")
"""The budget reminder every BasicAgent/IterativeAgent observation ends with."""
SHORT_CHARS = 100
CODE_KEYS = frozenset({"code", "command", "file_text", "new_str", "old_str", "insert_text"})


def block(label: str, text: Any, code: bool = False) -> dict[str, Any]:
    if not isinstance(text, str):
        text = json.dumps(text, indent=1, ensure_ascii=False)
    return {"label": label, "text": text, "code": code}


def argument_blocks(arguments: Any) -> list[dict[str, Any]]:
    """A tool call's arguments: one block per argument of a JSON object, else the raw text."""
    try:
        parsed = json.loads(arguments) if isinstance(arguments, str) else arguments
    except json.JSONDecodeError:
        return [block("arguments (not JSON)", arguments, code=True)]
    if not isinstance(parsed, dict):
        return [block("arguments", arguments, code=True)]
    short = {k: v for k, v in parsed.items() if k not in CODE_KEYS and is_short(v)}
    blocks = [block("arguments", "\n".join(f"{k}: {json.dumps(v)}" for k, v in short.items()))]
    blocks = blocks if short else []
    long = [(k, v) for k, v in parsed.items() if k not in short]
    return blocks + [block(key, value, code=key in CODE_KEYS) for key, value in long]


def is_short(value: Any) -> bool:
    """A value shown on one ``key: value`` line with the call's other short arguments."""
    text = value if isinstance(value, str) else json.dumps(value)
    return len(text) <= SHORT_CHARS and "\n" not in text


def usage_facts(usage: dict[str, Any] | None) -> list[str]:
    usage = usage or {}
    facts = [
        f"{usage.get('prompt_tokens') or 0:,} in / {usage.get('completion_tokens') or 0:,} out"
    ]
    if usage.get("reasoning_tokens"):
        facts.append(f"{usage['reasoning_tokens']:,} reasoning")
    if usage.get("cost_usd") is not None:
        facts.append(f"${usage['cost_usd']:.4f}")
    return facts


def model_call(event: dict[str, Any], called: set[tuple[str, str]]) -> dict[str, Any]:
    """The assistant's reply; arguments of calls the loop records as ``tool_call`` events are
    shown there, the others (AIDE's review) here."""
    message = event.get("message") or {}
    purpose = str(event.get("purpose") or "step")
    facts = usage_facts(event.get("usage"))
    if event.get("latency_s") is not None:
        facts.append(f"latency {format_seconds(event['latency_s'], 2)}")
    tags = []
    if (event.get("retry_wait_s") or 0) > 0:
        facts.append(f"waited {format_seconds(event['retry_wait_s'], 2)} out transient errors")
        tags.append("retry")
    if purpose.endswith("_retry"):
        tags.append("retry")
    if event.get("prompt_messages") is not None:
        facts.append(f"{event['prompt_messages']} messages sent")
    if event.get("cut"):
        facts.append(f"reply cut by {str(event['cut']).replace('_', ' ')}")
        tags.append("cut")
    blocks = []
    if message.get("content"):
        blocks.append(block("content", message["content"]))
    for key in ("reasoning_content", "reasoning"):
        if message.get(key):
            blocks.append(block(key, message[key]))
    names = []
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        name, arguments = str(function.get("name")), function.get("arguments") or ""
        names.append(name)
        if (name, arguments) not in called:
            blocks += [{**b, "label": f"{name}: {b['label']}"} for b in argument_blocks(arguments)]
    calls = f" → {', '.join(names)}" if names else ""
    return item("model_call", f"assistant ({purpose}){calls}", facts, blocks, tags)


def item(
    kind: str,
    title: str,
    facts: list[str] | None = None,
    blocks: list[dict[str, Any]] | None = None,
    tags: list[str] | None = None,
) -> dict[str, Any]:
    return {"kind": kind, "title": title, "facts": facts or [], "blocks": blocks or [],
            "tags": sorted(set(tags or []))}  # fmt: skip


def observation(event: dict[str, Any]) -> dict[str, Any]:
    outcome = str(event.get("outcome") or "ok")
    text = str(event.get("text") or "")
    blocks = []
    reminder = BUDGET_LINE.search(text)
    if reminder:
        text = text[: reminder.start()]
    blocks.append(block("output", text, code=True))
    if reminder:
        blocks.append(block("reminder", reminder.group(1)))
    if event.get("traceback"):
        blocks.append(block("traceback", event["traceback"], code=True))
    facts = [format_seconds(event.get("duration_s"), 2), f"{len(text):,} chars"]
    name = event.get("name") or "tool"
    tags = [] if outcome == "ok" else ["error"]
    if event.get("cut"):
        facts.append(cut_by(event["cut"]))
        tags.append("cut")
    return item("observation", f"{name} → {outcome}", facts, blocks, tags)


def cut_by(limit: object) -> str:
    """``time_limit`` -> ``cut by the time limit``."""
    return f"cut by the {str(limit).replace('_', ' ')}"


def describe(event: dict[str, Any], called: set[tuple[str, str]]) -> dict[str, Any]:
    """One event as an item (without its number, time or node)."""
    kind = str(event.get("kind"))
    if kind == "model_call":
        return model_call(event, called)
    if kind == "message":
        message = event.get("message") or {}
        purpose = str(event.get("purpose") or "")
        shown = "reminder" if purpose in REMINDER_PURPOSES else "message"
        title = f"{message.get('role', '?')} ({purpose})" if purpose else str(message.get("role"))
        return item(shown, title, blocks=[block("content", message.get("content") or "")])
    if kind == "tool_call":
        facts = [f"id {event['id']}"] if event.get("id") else []
        blocks = argument_blocks(event.get("arguments") or "")
        return item("tool_call", f"call {event.get('name')}", facts, blocks)
    if kind == "observation":
        return observation(event)
    if kind == "final_validation":
        tags = [] if event.get("outcome") == "ok" else ["error"]
        text = [block("output", event.get("text") or "", code=True)]
        return item("observation", f"final validation of {event.get('path')}", [], text, tags)
    if kind == "truncation":
        facts = [f"{event.get('tokens_before')} → {event.get('tokens_after')} tokens "
                 f"(limit {event.get('limit_tokens')})", str(event.get("reason") or "")]  # fmt: skip
        title = (
            f"context truncated: {event.get('dropped_messages', 0)} message(s) dropped, "
            f"{event.get('cut_messages', 0)} cut"
        )
        return item("truncation", title, facts)
    if kind in ("model_call_cut", "model_call_refused"):
        limit = str(event.get("limit") or "a limit").replace("_", " ")
        verb = "cut" if kind == "model_call_cut" else "not sent"
        facts = [str(event.get("reason") or "")] if event.get("reason") else []
        for key, label in (("agent_time_s", "agent time"), ("wall_time_s", "wall time")):
            if event.get(key) is not None:
                facts.append(f"{label} {format_seconds(event[key], 2)}")
        if event.get("bound_usd") is not None:
            facts.append(f"could cost ${event['bound_usd']:.4f}, ${event['left_usd']:.4f} left")
        title = f"model call ({event.get('purpose') or 'step'}) {verb} by the {limit}"
        return item("model_call", title, facts, [], ["cut"])
    if kind == "error":
        blocks = [
            block(key, event[key], code=True) for key in ("error", "traceback") if key in event
        ]
        return item("error", f"error ({event.get('source') or 'run'})", [], blocks, ["error"])
    if kind == "execution":
        facts = [format_seconds(event.get("duration_s"), 2), f"exit code {event.get('exit_code')}"]
        if event.get("timed_out"):
            facts.append(cut_by(event["cut"]) if event.get("cut") else "timed out")
        if event.get("exception"):
            facts.append(str(event["exception"]))
        facts.append("valid submission" if event.get("submission_valid") else "no valid submission")
        failed = bool(event.get("exit_code") != 0 or event.get("timed_out"))
        tags = ["error"] * failed + ["cut"] * bool(event.get("cut"))
        return item("execution", f"node #{event.get('node')} ran", facts, [], tags)
    if kind == "node":
        state = "buggy" if event.get("is_buggy") else "ok"
        metric = event.get("metric")
        shown = f"metric {metric:.6g}" if isinstance(metric, int | float) else "no metric"
        facts = [state, shown]
        if event.get("best_id") is not None:
            facts.append(f"best so far #{event['best_id']}")
        return item("node", f"node #{event.get('id')} ({event.get('operator')})", facts)
    if kind in RUN_KINDS:
        return run_event(kind, event)
    rest = {k: v for k, v in event.items() if k not in ("t", "kind")}
    return item(kind, kind, [], [block("event", rest, code=True)] if rest else [])


def run_event(kind: str, event: dict[str, Any]) -> dict[str, Any]:
    if kind == "start":
        how = "resumed" if event.get("resumed") else "started"
        facts = [str(event.get(k)) for k in ("scaffold", "task", "model") if event.get(k)]
        return item("run", f"run {how}", facts)
    if kind == "end":
        error, status = event.get("error"), str(event.get("status"))
        blocks = [block("error", error)] if error else []
        return item("run", f"run ended: {status}", [], blocks, ["error"] * ("error" in status))
    if kind == "checkpoint":
        return item("checkpoint", f"checkpoint after step {event.get('step')}")
    return item("run", f"resumed after {event.get('nodes')} node(s)")


def recorded_calls(events: list[tuple[int, dict[str, Any]]]) -> set[tuple[str, str]]:
    return {
        (str(e.get("name")), e.get("arguments") or "")
        for _, e in events
        if e.get("kind") == "tool_call"
    }


def items(events: list[tuple[int, dict[str, Any]]], aide: bool) -> list[dict[str, Any]]:
    """The transcript: one item per event, with its time from the first event and, for AIDE,
    the node it belongs to (events up to a ``node`` event make that node)."""
    called = recorded_calls(events)
    start = next((e["t"] for _, e in events if isinstance(e.get("t"), int | float)), None)
    node = 0
    out = []
    for number, event in events:
        try:
            shown = describe(event, called)
        except (AttributeError, KeyError, TypeError, ValueError):  # a shape this page predates
            rest = {k: v for k, v in event.items() if k not in ("t", "kind")}
            shown = item(str(event.get("kind")), str(event.get("kind")), [], [block("event", rest)])
        t = event.get("t")
        shown["i"] = number
        shown["t"] = (
            round(t - start, 3) if start is not None and isinstance(t, int | float) else None
        )
        shown["at"] = t if isinstance(t, int | float) else None
        if aide:
            if event.get("kind") == "node" and isinstance(event.get("id"), int):
                node = event["id"]
            shown["node"] = node if event.get("kind") not in RUN_KINDS else None
            if event.get("kind") == "node":
                node += 1
        out.append(shown)
    return out
