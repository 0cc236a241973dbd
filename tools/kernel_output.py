"""Turning a cell's Jupyter messages into the text the model reads."""

from __future__ import annotations

import re
from typing import Any

from tools.ansi import strip_ansi
from tools.truncate import StreamCap

ELIDED_MIME = "application/vnd.scaffolds.elided+json"
"""Sent by kernel_boot.py: how many characters the kernel itself dropped from the middle."""
_DEFAULT_REPR = re.compile(r"^<[\w.]+ object( at 0x[0-9a-f]+)?>$")


def _render_data(data: dict[str, Any]) -> str:
    """Rich output as text: its text/plain form when that says something, else a one-line
    placeholder naming the richer type (images always get the placeholder)."""
    rich = [m for m in data if m != "text/plain"]
    images = [m for m in rich if m.startswith("image/")]
    plain = strip_ansi(str(data.get("text/plain", "")))
    if images:
        return f"[{images[0]} output not shown]"
    if plain and not (rich and _DEFAULT_REPR.match(plain)):
        return plain
    return f"[{rich[0]} output not shown]" if rich else plain


class Cell:
    """What one execution has produced so far."""

    def __init__(self, cap: int):
        self.out = StreamCap(cap)
        self.error: str | None = None

    def add(self, msg_type: str, content: dict[str, Any]) -> None:
        if msg_type == "stream":
            self.out.write(strip_ansi(content.get("text", "")))
        elif msg_type == "error":
            self.error = content.get("ename") or "Error"
            lines = content.get("traceback") or [f"{self.error}: {content.get('evalue', '')}"]
            self.out.write(strip_ansi("\n".join(lines)) + "\n")
        elif msg_type in ("execute_result", "display_data", "update_display_data"):
            data = content.get("data") or {}
            if ELIDED_MIME in data:
                self.out.skip(int(data[ELIDED_MIME].get("chars", 0)))
            else:
                self.out.write(_render_data(data) + "\n")
