"""The rubric judge's prompt templates, ``prompts/paperbench/judge_*.md``, and its token estimate.

Templates are read by the one prompt loader (``prompts.render``), with its rule: the filled-in
text loses its trailing newlines. (This module used to cut them from the template before
filling it in; every judge template ends in text, not in a placeholder, so the prompts are the
same.) Token counts are estimates at 3.5 characters a token, slightly pessimistic for English
and code, which is the safe side for a budget.
"""

from __future__ import annotations

import prompts

PROMPT_SET = "paperbench"
CHARS_PER_TOKEN = 3.5


def render(name: str, **values: object) -> str:
    """``prompts/paperbench/<name>.md`` filled in, without its final newline."""
    return prompts.render(PROMPT_SET, name, values)


def tokens(text: str) -> int:
    return int(len(text) / CHARS_PER_TOKEN) + 1


def chars(n_tokens: float) -> int:
    return max(0, int(n_tokens * CHARS_PER_TOKEN))
