"""Every prompt a model reads, as files: ``prompts/<set>/<name>.md``, and the one loader of them.

A caller names the sets to search, in order: a subclass lists its own set first and falls back
to the sets after it for the templates it does not change (IterativeAgent:
``("iterative", "basic")``); one set may be given as a plain string. A ``name`` may hold a
folder (``"formats/text-easy"``). ``variant="obfuscated"`` prefers ``<name>_obfuscated.md``
where one exists. Templates use ``string.Template`` placeholders (``$name``); a value left out
is an error. Tool schemas a model may call sit beside them as ``<name>.json``. Each file is
read once, and ``loaded()`` names every file this process read with its sha256 (a run's
record keeps them, so a reader can check which prompts its model saw).

One whitespace rule: a rendered prompt loses its trailing newlines (``trim="newlines"``), so a
template file ends with a newline as every text file does. Two other rules are kept, by an
explicit argument, where callers had them before this loader, so that what the model reads did
not change by a byte: ``trim="whitespace"`` strips both ends, spaces included (AIDE's prompts,
the log reviewer's, TAM-Bench's submission formats, the parts of PaperBench's instructions),
and ``trim="none"`` keeps the text exactly as filled in (the assembled task instructions and
the parts they are made of, the demo tasks' descriptions).

``prompts.quoting`` puts untrusted text into a judge's prompt as data.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from importlib import resources
from string import Template
from typing import Any, Literal

Sets = str | Sequence[str]
"""One prompt set, or several searched in order."""
Trim = Literal["newlines", "whitespace", "none"]

_TRIM: dict[str, Callable[[str], str]] = {
    "newlines": lambda text: text.rstrip("\n"),
    "whitespace": str.strip,
    "none": lambda text: text,
}


def _sets(sets: Sets) -> tuple[str, ...]:
    return (sets,) if isinstance(sets, str) else tuple(sets)


_LOADED: dict[str, str] = {}
"""``<set>/<file>`` -> sha256 of every template and schema this process has read."""


@cache
def _read(prompt_set: str, filename: str) -> str | None:
    path = resources.files(__name__).joinpath(prompt_set, *filename.split("/"))
    if not path.is_file():
        return None
    content = path.read_text(encoding="utf-8")
    _LOADED[f"{prompt_set}/{filename}"] = hashlib.sha256(content.encode("utf-8")).hexdigest()
    return content


def loaded() -> dict[str, str]:
    """``<set>/<file>`` -> sha256 of each prompt file this process has read, sorted by name."""
    return dict(sorted(_LOADED.items()))


def text(sets: Sets, name: str, *, suffix: str = ".md", variant: str | None = None) -> str:
    """The file ``<name><suffix>`` as written, from the first set that has it
    (``<name>_<variant><suffix>`` first, from any set, when a variant is asked for);
    ``FileNotFoundError`` naming the sets searched when none has it."""
    searched = _sets(sets)
    for candidate in ([f"{name}_{variant}"] if variant else []) + [name]:
        for prompt_set in searched:
            found = _read(prompt_set, candidate + suffix)
            if found is not None:
                return found
    raise FileNotFoundError(
        f"no prompt template {name}{suffix} in prompts/{{{','.join(searched)}}}"
    )


def render(
    sets: Sets,
    name: str,
    mapping: Mapping[str, object] | None = None,
    /,
    *,
    trim: Trim = "newlines",
    variant: str | None = None,
    **values: object,
) -> str:
    """The template ``<name>.md`` with every placeholder filled (``KeyError`` for one left
    out) from ``mapping`` and the keywords, as ``string.Template.substitute`` takes them, then
    trimmed by ``trim`` (see the module's docstring)."""
    filled = Template(text(sets, name, variant=variant)).substitute(mapping or {}, **values)
    return _TRIM[trim](filled)


def tool_schema(sets: Sets, name: str) -> dict[str, Any]:
    """A function schema the model may call (``<name>.json``), as a fresh dict."""
    schema: dict[str, Any] = json.loads(text(sets, name, suffix=".json"))
    return schema


def names(prompt_set: str, prefix: str = "") -> list[str]:
    """The names of the templates (``.md``) of one set that start with ``prefix``, in the
    order of their file names."""
    folder = resources.files(__name__).joinpath(prompt_set)
    files = sorted(p.name for p in folder.iterdir() if p.name.startswith(prefix))
    return [f.removesuffix(".md") for f in files if f.endswith(".md")]


__all__ = ["Sets", "Trim", "loaded", "names", "render", "text", "tool_schema"]
