"""Reading an operator's answer: a plan in prose, then one script in a fenced code block."""

from __future__ import annotations

import re

_FENCE = re.compile(r"^[ \t]*```[ \t]*([\w+.-]*)[^\n]*\n(.*?)(?:^[ \t]*```[ \t]*$|\Z)", re.M | re.S)
_PYTHON = {"", "python", "python3", "py"}


def parse_reply(text: str | None) -> tuple[str, str]:
    """``(plan, code)``. The code is the longest Python (or unlabelled) fenced block, so an
    example snippet before the full script is passed over; a block cut off by the reply's end
    counts up to that end. No such block gives ``code == ""``."""
    text = text or ""
    fences = list(_FENCE.finditer(text))
    scripts = [m.group(2).strip("\n") for m in fences if m.group(1).lower() in _PYTHON]
    scripts = [code for code in scripts if code.strip()]
    if not scripts:
        return text.strip(), ""
    plan = text[: fences[0].start()].strip()
    if not plan:  # the answer opened with its code: take the prose around the blocks
        plan = _FENCE.sub("", text).strip()
    return plan, max(scripts, key=len) + "\n"
