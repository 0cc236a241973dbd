from __future__ import annotations

import pytest

from scaffolds.budget import Budget, LimitReached, parse_duration
from scaffolds.timefmt import format_hms


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_parse_duration_and_format() -> None:
    assert parse_duration("24h") == 86400
    assert parse_duration("15m") == 900
    assert parse_duration("90") == 90
    assert parse_duration("1.5d") == 129600
    assert format_hms(3725) == "1:02:05"
    with pytest.raises(ValueError, match="not a duration"):
        parse_duration("soon")


def test_retry_waits_are_not_charged() -> None:
    clock = Clock()
    budget = Budget(time_limit_s=100, max_steps=5, clock=clock)
    clock.now += 30
    budget.exclude(20)
    assert budget.time_left() == pytest.approx(90)
    assert budget.reminder() == "[0:01:30 time left, 5 steps left]"


def test_limits_raise_with_status() -> None:
    clock = Clock()
    budget = Budget(time_limit_s=10, max_steps=2, max_cost_usd=1.0, clock=clock)
    budget.steps = 2
    with pytest.raises(LimitReached) as err:
        budget.check()
    assert err.value.status == "step_limit"
    budget.steps = 0
    budget.add_cost(1.5)
    with pytest.raises(LimitReached) as err:
        budget.check()
    assert err.value.status == "cost_limit"
    budget.cost_usd = 0
    clock.now += 11
    with pytest.raises(LimitReached) as err:
        budget.check()
    assert err.value.status == "time_limit"
