"""Mean ± standard error over seeds: the one statistic every report table uses."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass


@dataclass(frozen=True)
class MeanSem:
    mean: float
    sem: float
    """NaN with fewer than two seeds."""


def mean_sem(values: list[float]) -> MeanSem:
    if not values:
        return MeanSem(math.nan, math.nan)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return MeanSem(mean, math.nan)
    return MeanSem(mean, statistics.stdev(values) / math.sqrt(len(values)))
