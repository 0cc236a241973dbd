"""AIDE's prompt templates, from ``prompts/aide/`` (``string.Template``, ``$name`` placeholders)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from string import Template
from typing import Any

PROMPT_SET = "aide"


@cache
def _text(name: str) -> str:
    return resources.files("prompts").joinpath(PROMPT_SET, name).read_text(encoding="utf-8")


def render(name: str, **fields: object) -> str:
    """``prompts/aide/<name>.md`` with every placeholder filled (a missing one is an error)."""
    return Template(_text(f"{name}.md")).substitute({k: str(v) for k, v in fields.items()}).strip()


def tool_schema(name: str) -> dict[str, Any]:
    """A function schema the model may call (``prompts/aide/<name>.json``), as a fresh dict."""
    schema: dict[str, Any] = json.loads(_text(f"{name}.json"))
    return schema
