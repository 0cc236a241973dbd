"""Bounded, jittered exponential backoff for transient model errors."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from scaffolds.messages import CallCut

T = TypeVar("T")


@dataclass
class RetryPolicy:
    """``max_attempts`` tries in all; the wait before try k+1 is uniform in [0, min(cap, base * 2**k)]."""

    max_attempts: int = 6
    base_delay_s: float = 1.0
    max_delay_s: float = 60.0
    rng: random.Random = field(default_factory=random.Random)
    sleep: Callable[[float], None] = time.sleep

    def delay(self, attempt: int) -> float:
        return self.rng.uniform(0.0, min(self.max_delay_s, self.base_delay_s * 2**attempt))


@dataclass
class RetryOutcome(Generic[T]):
    value: T
    attempts: int
    waited_s: float


def call_with_retries(
    fn: Callable[[], T],
    policy: RetryPolicy,
    is_transient: Callable[[BaseException], bool],
    on_retry: Callable[[int, BaseException, float], None] | None = None,
    deadline: float | None = None,
) -> RetryOutcome[T]:
    """Call ``fn`` until it succeeds, a permanent error is raised, or the attempts run out.

    The last transient error is re-raised when attempts run out. ``waited_s`` is the time
    spent sleeping, which budgets exclude from the agent's time. A wait that would end past
    ``deadline`` (a ``time.monotonic()`` value) is not started: ``CallCut`` instead.
    """
    waited = 0.0
    for attempt in range(policy.max_attempts):
        try:
            return RetryOutcome(fn(), attempt + 1, waited)
        except CallCut as cut:
            cut.waited_s += waited
            raise
        except Exception as exc:
            if not is_transient(exc) or attempt == policy.max_attempts - 1:
                raise
            pause = policy.delay(attempt)
            if deadline is not None and time.monotonic() + pause >= deadline:
                stopped = CallCut(
                    f"the wall-clock limit came before retry {attempt + 2} (last error: {exc})"
                )
                stopped.waited_s = waited
                raise stopped from exc
            if on_retry is not None:
                on_retry(attempt + 1, exc, pause)
            policy.sleep(pause)
            waited += pause
    raise AssertionError("unreachable")  # pragma: no cover
