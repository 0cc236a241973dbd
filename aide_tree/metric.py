"""A validation score that knows its direction, so no caller ever asks "min or max?"."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Metric:
    """One node's validation score. The direction is the task's, fixed once per run."""

    value: float
    lower_is_better: bool

    def better(self, other: Metric | None) -> bool:
        """Strictly better than ``other``; anything is better than no metric."""
        if other is None:
            return True
        if self.lower_is_better:
            return self.value < other.value
        return self.value > other.value

    def __str__(self) -> str:
        return f"{self.value:.6g}"


def parse_metric(raw: object) -> float | None:
    """A finite number from a review, or None.

    Integers and numeric strings count; booleans, NaN, infinities and anything else do not.
    """
    if isinstance(raw, bool) or raw is None:
        return None
    if isinstance(raw, str):
        try:
            raw = float(raw.strip())
        except ValueError:
            return None
    if not isinstance(raw, int | float):
        return None
    try:
        value = float(raw)
    except OverflowError:  # an int beyond float's range
        return None
    return value if math.isfinite(value) else None
