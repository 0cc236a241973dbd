"""Time, step and cost limits, with time spent waiting on model retries excluded."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")
_UNIT_S = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(text: str | float | int) -> float:
    """``"90"``, ``"90s"``, ``"15m"``, ``"24h"``, ``"1.5d"`` -> seconds."""
    if isinstance(text, int | float):
        return float(text)
    m = _DURATION.match(text)
    if not m:
        raise ValueError(f"not a duration: {text!r} (use e.g. 90s, 15m, 24h)")
    return float(m.group(1)) * _UNIT_S[m.group(2)]


def format_hms(seconds: float) -> str:
    """Seconds -> ``H:MM:SS`` (never negative)."""
    s = max(0, int(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


class LimitReached(Exception):
    """A budget ran out; ``status`` is what the run record says (time_limit, step_limit, cost_limit)."""

    def __init__(self, status: str, message: str):
        super().__init__(message)
        self.status = status


@dataclass
class Budget:
    """What a run may spend. Time is wall time minus retry waits (``excluded_s``)."""

    time_limit_s: float
    max_steps: int | None = None
    max_cost_usd: float | None = None
    clock: Callable[[], float] = time.monotonic
    steps: int = 0
    cost_usd: float = 0.0
    excluded_s: float = 0.0
    """Seconds not charged to the agent: model retry waits, and time before a resume."""
    _start: float = field(init=False)

    def __post_init__(self) -> None:
        self._start = self.clock()

    def elapsed(self) -> float:
        return self.clock() - self._start - self.excluded_s

    def time_left(self) -> float:
        return max(0.0, self.time_limit_s - self.elapsed())

    def steps_left(self) -> int | None:
        return None if self.max_steps is None else max(0, self.max_steps - self.steps)

    def exclude(self, seconds: float) -> None:
        self.excluded_s += max(0.0, seconds)

    def charge_elapsed(self, seconds: float) -> None:
        """Count time already spent before this process started (used on resume)."""
        self._start -= seconds

    def add_cost(self, cost_usd: float | None) -> None:
        self.cost_usd += cost_usd or 0.0

    def check(self) -> None:
        """Raise LimitReached when any limit is spent."""
        if self.time_left() <= 0:
            raise LimitReached(
                "time_limit", f"time limit of {format_hms(self.time_limit_s)} reached"
            )
        if self.max_steps is not None and self.steps >= self.max_steps:
            raise LimitReached("step_limit", f"step limit of {self.max_steps} reached")
        if self.max_cost_usd is not None and self.cost_usd >= self.max_cost_usd:
            raise LimitReached("cost_limit", f"cost limit of ${self.max_cost_usd:.2f} reached")

    def reminder(self) -> str:
        """The budget line every observation ends with."""
        parts = [f"{format_hms(self.time_left())} time left"]
        left = self.steps_left()
        if left is not None:
            parts.append(f"{left} steps left")
        if self.max_cost_usd is not None:
            parts.append(f"${max(0.0, self.max_cost_usd - self.cost_usd):.2f} budget left")
        return "[" + ", ".join(parts) + "]"
