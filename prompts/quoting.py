"""Putting untrusted text (a submission's files, names and logs) into a judge's prompt as data.

A judge prompt marks its parts with tags (``<files>``, ``<file path="...">``, ``<code>``). A
submission that writes those tags itself could close the part holding it and write its own
instructions after it. ``quote`` breaks every tag of the prompt's own structure inside the
text (``</files>`` becomes ``</\\files>``, ``<criterion>`` becomes ``<\\criterion>``): visible to
the judge, and no longer structure. ``quote_attribute`` makes a file name safe inside a
quoted attribute. The prompts themselves also tell the judge that what is quoted is data.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

STRUCTURE_TAGS = (
    "file", "files", "reproduce.log", "reproduce.sh", "paper", "addendum", "criterion",
    "preceding_criteria", "code", "constraint",
)  # fmt: skip
"""Every tag a judge prompt in ``prompts/`` uses as structure."""


def _pattern(tags: Iterable[str]) -> re.Pattern[str]:
    names = "|".join(sorted((re.escape(t) for t in tags), key=len, reverse=True))
    return re.compile(rf"<(\s*/?\s*)({names})(?![\w.-])", re.IGNORECASE)


_TAGS = _pattern(STRUCTURE_TAGS)


def quote(text: str) -> str:
    """``text`` with every structural tag of the prompts broken (see the module docstring)."""
    return _TAGS.sub(lambda m: f"<{m.group(1)}\\{m.group(2)}", text)


def quote_attribute(text: str) -> str:
    """``text`` safe between double quotes in a tag: no quote, angle bracket or line break."""
    return (
        text.replace("&", "&amp;")
        .replace('"', "&quot;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\n", "\\n")
        .replace("\r", "\\r")
    )
