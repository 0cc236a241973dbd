"""The feedback model's verdict on one node: bug or not, a summary, and the metric it saw.

The model is asked to call ``submit_review``; a model that cannot call functions may answer
with the same fields as a JSON object instead. The metric's direction is never asked: it is
the task's, fixed once per run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from aide_tree.metric import parse_metric
from scaffolds.messages import ModelResponse

TOOL_NAME = "submit_review"


@dataclass(frozen=True)
class Review:
    is_bug: bool
    summary: str
    metric: float | None
    problem: str | None = None
    """Why the answer could not be read as a review (then ``is_bug`` is True)."""


def find_json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in ``text`` (bare, fenced, or amid prose), or None."""
    decoder = json.JSONDecoder()
    start = text.find("{")
    tries = 0
    while start != -1 and tries < 50:
        try:
            value, _end = decoder.raw_decode(text, start)
        except ValueError:
            value = None
        if isinstance(value, dict):
            return value
        start = text.find("{", start + 1)
        tries += 1
    return None


def _flag(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return None


def parse_review(response: ModelResponse) -> Review:
    """A Review from a ``submit_review`` call or, failing that, a JSON answer."""
    call = next((c for c in response.tool_calls if c.name == TOOL_NAME), None)
    source = call.arguments if call is not None else (response.content or "")
    fields = find_json_object(source)
    if fields is None:
        where = "the submit_review arguments" if call is not None else "the answer"
        return Review(True, "", None, problem=f"no JSON object in {where}")
    is_bug = _flag(fields.get("is_bug"))
    summary = fields.get("summary")
    summary = summary.strip() if isinstance(summary, str) else ""
    metric = parse_metric(fields.get("metric"))
    if is_bug is None:
        return Review(True, summary, metric, problem="is_bug is not true or false")
    return Review(is_bug, summary, metric)
