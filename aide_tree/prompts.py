"""AIDE's prompt templates, ``prompts/aide/``, through the one prompt loader (``prompts``).

AIDE's prompts are stripped of whitespace at both ends once filled in (``trim="whitespace"``),
as they always were: a code block or a data preview placed last loses its trailing blank lines.
"""

from __future__ import annotations

from typing import Any

import prompts

PROMPT_SET = "aide"


def render(name: str, **fields: object) -> str:
    """``prompts/aide/<name>.md`` with every placeholder filled (a missing one is an error)."""
    return prompts.render(PROMPT_SET, name, fields, trim="whitespace")


def tool_schema(name: str) -> dict[str, Any]:
    """A function schema the model may call (``prompts/aide/<name>.json``), as a fresh dict."""
    return prompts.tool_schema(PROMPT_SET, name)
