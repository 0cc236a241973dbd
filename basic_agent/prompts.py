"""The agent's prompt templates: ``prompts/<set>/<name>.md``, searched through a list of sets.

A subclass lists its own set first and falls back to the sets after it for the templates it
does not change (IterativeAgent: ``("iterative", "basic")``). Templates use ``string.Template``
placeholders (``$name``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources
from string import Template


@cache
def load(prompt_sets: tuple[str, ...], name: str) -> Template:
    root = resources.files("prompts")
    for prompt_set in prompt_sets:
        path = root.joinpath(prompt_set, f"{name}.md")
        if path.is_file():
            return Template(path.read_text(encoding="utf-8"))
    raise FileNotFoundError(f"no prompt template {name}.md in prompts/{{{','.join(prompt_sets)}}}")


def render(prompt_sets: Sequence[str], name: str, **values: object) -> str:
    """The template filled in, without its trailing newline."""
    return load(tuple(prompt_sets), name).substitute(values).rstrip("\n")
