"""Time, wall-clock, step and cost limits.

Two clocks: the agent's time excludes waits on model retries (an outage is not the agent's
fault), and the wall clock counts everything, so that no run outlives its wall limit whatever
its model does (by default the time limit plus a quarter of it, and at least ten minutes more:
``default_wall_limit``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from scaffolds.timefmt import format_hms

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


WALL_MARGIN = 0.25
"""The default wall limit is the time limit plus this fraction of it..."""
WALL_MARGIN_MIN_S = 600.0
"""...and at least this many seconds more."""


def default_wall_limit(time_limit_s: float) -> float:
    """The wall-clock limit of a run with no ``--wall-limit``."""
    return time_limit_s + max(WALL_MARGIN * time_limit_s, WALL_MARGIN_MIN_S)


class LimitReached(Exception):
    """A budget ran out; ``status`` is what the run record says (time_limit, wall_limit,
    step_limit, cost_limit)."""

    def __init__(self, status: str, message: str):
        super().__init__(message)
        self.status = status


@dataclass
class Budget:
    """What a run may spend. The agent's time is wall time minus retry waits (``excluded_s``);
    the wall clock (``wall_limit_s``, None for none) counts everything."""

    time_limit_s: float
    max_steps: int | None = None
    max_cost_usd: float | None = None
    clock: Callable[[], float] = time.monotonic
    steps: int = 0
    cost_usd: float = 0.0
    excluded_s: float = 0.0
    """Seconds not charged to the agent: model retry waits, and time before a resume."""
    wall_limit_s: float | None = None
    _start: float = field(init=False)
    _wall_start: float = field(init=False)

    def __post_init__(self) -> None:
        self._start = self._wall_start = self.clock()

    def elapsed(self) -> float:
        """The agent's time so far (retry waits not counted)."""
        return self.clock() - self._start - self.excluded_s

    def wall_elapsed(self) -> float:
        """Wall-clock time so far, everything counted."""
        return self.clock() - self._wall_start

    def agent_time_left(self) -> float:
        return max(0.0, self.time_limit_s - self.elapsed())

    def wall_left(self) -> float:
        if self.wall_limit_s is None:
            return float("inf")
        return max(0.0, self.wall_limit_s - self.wall_elapsed())

    def time_left(self) -> float:
        """What a tool call or a model request may still take: the agent's time left, or the
        wall clock's when that is shorter."""
        return min(self.agent_time_left(), self.wall_left())

    def wall_deadline(self) -> float | None:
        """The wall limit as a ``clock()`` value (None without a wall limit)."""
        return None if self.wall_limit_s is None else self._wall_start + self.wall_limit_s

    def ran_out(self) -> str | None:
        """The clock that has run out, as the run's status would say (``wall_limit`` or
        ``time_limit``), or None: a call still running then was stopped by that limit."""
        if self.wall_left() <= 0:
            return "wall_limit"
        if self.agent_time_left() <= 0:
            return "time_limit"
        return None

    def steps_left(self) -> int | None:
        return None if self.max_steps is None else max(0, self.max_steps - self.steps)

    def exclude(self, seconds: float) -> None:
        self.excluded_s += max(0.0, seconds)

    def charge_elapsed(self, seconds: float, wall_seconds: float = 0.0) -> None:
        """Count time already spent before this process started (used on resume): agent time,
        and wall-clock time."""
        self._start -= seconds
        self._wall_start -= wall_seconds

    def add_cost(self, cost_usd: float | None) -> None:
        self.cost_usd += cost_usd or 0.0

    def check(self) -> None:
        """Raise LimitReached when any limit is spent."""
        if self.wall_left() <= 0:
            assert self.wall_limit_s is not None
            raise LimitReached(
                "wall_limit",
                f"wall-clock limit of {format_hms(self.wall_limit_s)} reached "
                f"(agent time {format_hms(self.elapsed())})",
            )
        if self.agent_time_left() <= 0:
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
