"""Hand-written replay files for AIDE (``--model replay:FILE``).

A step reads one line for its operator (a plan and a fenced script; a line with no code block
is followed by one more, answering the format reminder) and one line for its review (a
``submit_review`` call, or the same fields as JSON text)::

    write_cassette(path, [operator_reply("Logistic regression.", code),
                          review_call(is_bug=False, summary="Works.", metric=0.97)])
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from aide_tree.review import TOOL_NAME


def operator_reply(plan: str, code: str | None) -> dict[str, Any]:
    """An operator's answer: the plan, then the script in a python block (none if None)."""
    content = plan if code is None else f"{plan}\n\n```python\n{code.rstrip()}\n```\n"
    return {"role": "assistant", "content": content}


def review_call(is_bug: bool, summary: str, metric: float | int | None) -> dict[str, Any]:
    """A review as a ``submit_review`` function call."""
    arguments = json.dumps({"is_bug": is_bug, "summary": summary, "metric": metric})
    call = {
        "id": "review",
        "type": "function",
        "function": {"name": TOOL_NAME, "arguments": arguments},
    }
    return {"role": "assistant", "content": None, "tool_calls": [call]}


def review_json(is_bug: bool, summary: str, metric: float | int | None) -> dict[str, Any]:
    """A review as a JSON answer, as from a model that cannot call functions."""
    return {
        "role": "assistant",
        "content": json.dumps({"is_bug": is_bug, "summary": summary, "metric": metric}),
    }


def write_cassette(path: Path, records: Iterable[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def keyed(replies: dict[int, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """A keyed cassette's lines: each node's replies (operator, then review) by node id, each
    line given its ``node`` and ``call`` index, so the replay answers a node the same whichever
    node asks first (``--parallel-nodes``)."""
    return [
        {"node": node, "call": call, **reply}
        for node, node_replies in sorted(replies.items())
        for call, reply in enumerate(node_replies)
    ]
