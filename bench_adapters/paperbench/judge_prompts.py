"""The rubric judge's prompt templates, ``prompts/paperbench/judge_*.md``, and its token estimate.

Templates use ``string.Template`` placeholders (``$name``), as every prompt set in ``prompts/``
does; each is read once. Token counts are estimates at 3.5 characters a token, slightly
pessimistic for English and code, which is the safe side for a budget.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from string import Template

PROMPT_SET = "paperbench"
CHARS_PER_TOKEN = 3.5


@cache
def _template(name: str) -> Template:
    path = resources.files("prompts").joinpath(PROMPT_SET, f"{name}.md")
    return Template(path.read_text(encoding="utf-8").rstrip("\n"))


def render(name: str, **values: object) -> str:
    """``prompts/paperbench/<name>.md`` filled in, without its final newline."""
    return _template(name).substitute(values)


def tokens(text: str) -> int:
    return int(len(text) / CHARS_PER_TOKEN) + 1


def chars(n_tokens: float) -> int:
    return max(0, int(n_tokens * CHARS_PER_TOKEN))
