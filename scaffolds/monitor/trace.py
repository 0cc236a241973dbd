"""What the agent did in a run, read from its trajectory: the code it ran, the commands it gave
and the files it wrote, each tied to the event that records it, for checks that quote evidence.

An ``Action`` is one thing the agent made happen:

- BasicAgent and IterativeAgent: a ``tool_call`` event, its arguments decoded (a python call's
  ``code``, a bash ``command``, a file tool's ``path`` and text), with the text of the
  ``observation`` that answered it;
- AIDE: an operator's ``model_call`` (draft, improve, debug, ...): the fenced code blocks of
  its reply, the script AIDE ran.

Event numbers are 0-based line numbers of ``trajectory.jsonl`` (an unreadable line keeps its
number), the numbers the run viewer shows. ``quote`` cuts evidence out of one argument's text,
so that every quote is an exact substring of what the viewer shows for that event.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scaffolds.view.load import read_events

QUOTE_CHARS = 200
FILE_TOOLS = frozenset({"create", "str_replace", "insert"})
_FENCED = re.compile(r"```[ \t]*(?:python|py|python3)?[ \t]*\n(.*?)```", re.DOTALL)


@dataclass(frozen=True)
class Action:
    event: int
    tool: str
    """The tool called (``python``, ``bash``, ``create``, ...), or ``aide`` for an AIDE script."""
    texts: tuple[tuple[str, str], ...]
    """(argument, text) pairs: what the agent wrote, argument by argument."""
    output: str = ""
    output_event: int | None = None

    @property
    def text(self) -> str:
        return "\n".join(text for _, text in self.texts)

    def argument(self, name: str) -> str:
        return next((text for key, text in self.texts if key == name), "")


def decoded_arguments(arguments: Any) -> tuple[tuple[str, str], ...]:
    """A tool call's arguments as (name, text) pairs; text that is not a JSON object is one
    ``arguments`` entry."""
    if isinstance(arguments, str):
        try:
            parsed = json.loads(arguments)
        except json.JSONDecodeError:
            return (("arguments", arguments),)
    else:
        parsed = arguments
    if not isinstance(parsed, dict):
        return (("arguments", str(arguments)),) if arguments else ()
    return tuple((str(k), v) for k, v in parsed.items() if isinstance(v, str) and v)


def aide_scripts(content: str) -> tuple[tuple[str, str], ...]:
    """The fenced code blocks of an AIDE operator's reply."""
    return tuple(("code", m.group(1)) for m in _FENCED.finditer(content) if m.group(1).strip())


def actions(events: list[tuple[int, dict[str, Any]]], aide: bool = False) -> list[Action]:
    """The run's actions in order (see the module docstring); ``aide``: the run is AIDE's, whose
    operator replies are the scripts it ran."""
    found: list[Action] = []
    waiting: dict[Any, int] = {}
    """Tool-call id -> position in ``found`` of the call still waiting for its observation."""
    for number, event in events:
        kind = event.get("kind")
        if kind == "tool_call":
            texts = decoded_arguments(event.get("arguments") or "")
            waiting[event.get("id")] = len(found)
            found.append(Action(number, str(event.get("name") or "?"), texts))
        elif kind == "observation" and event.get("tool_call_id") in waiting:
            at = waiting.pop(event.get("tool_call_id"))
            call = found[at]
            found[at] = Action(call.event, call.tool, call.texts, str(event.get("text") or ""),
                               number)  # fmt: skip
        elif aide and kind == "model_call" and event.get("purpose") != "review":
            message = event.get("message") or {}
            content = message.get("content") if isinstance(message, dict) else None
            if isinstance(content, str) and not message.get("tool_calls"):
                scripts = aide_scripts(content)
                if scripts:
                    found.append(Action(number, "aide", scripts))
    return found


def read_actions(run_dir: Path) -> tuple[list[tuple[int, dict[str, Any]]], list[Action]]:
    """The numbered events of ``run_dir/trajectory.jsonl`` and the actions they record."""
    run_dir = Path(run_dir)
    events, _ = read_events(run_dir / "trajectory.jsonl")
    aide = (run_dir / "journal.jsonl").is_file() or any(
        e.get("kind") == "start" and e.get("scaffold") == "aide" for _, e in events[:5]
    )
    return events, actions(events, aide)


def quote(text: str, start: int, end: int | None = None, keep: int = QUOTE_CHARS) -> str:
    """The line(s) of ``text`` holding ``text[start:end]``, stripped and cut to ``keep``
    characters around the match: always a substring of ``text``."""
    end = start if end is None else end
    first = text.rfind("\n", 0, start) + 1
    last = text.find("\n", max(end - 1, start))
    last = len(text) if last < 0 else last
    if last - first > keep:
        first = max(first, start - keep // 4)
        last = min(last, first + keep)
    return text[first:last].strip()
