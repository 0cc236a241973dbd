"""Durations as text, in the three forms the suite shows: every one of them is made here.

- ``format_hms``: a clock, ``1:02:05``, for budgets, limits and progress lines;
- ``format_duration``: words, ``1 hour 30 minutes``, for the limits an agent's instructions
  state;
- ``format_seconds``: seconds, ``1.5 s``, for timeouts the model reads (a tenth at most, no
  trailing zeros), or with fixed ``decimals`` for the latencies a page shows (``0.12 s``).
"""

from __future__ import annotations


def format_hms(seconds: float) -> str:
    """Seconds -> ``H:MM:SS`` (never negative)."""
    s = max(0, int(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def format_duration(seconds: float) -> str:
    """``5400`` -> ``"1 hour 30 minutes"``; whole seconds, zero parts left out."""
    s = max(0, round(seconds))
    parts = [(s // 3600, "hour"), (s % 3600 // 60, "minute"), (s % 60, "second")]
    words = [f"{n} {unit}{'' if n == 1 else 's'}" for n, unit in parts if n]
    return " ".join(words) or "0 seconds"


def format_seconds(value: object, decimals: int | None = None) -> str:
    """``30`` -> ``"30 s"``, ``1.25`` -> ``"1.2 s"``; with ``decimals=2``, ``"1.25 s"``.
    A value that is not a number (a record with the field missing) is ``"? s"``."""
    if not isinstance(value, int | float):
        return "? s"
    if decimals is None:
        return f"{round(value, 1):g} s"
    return f"{float(value):.{decimals}f} s"
