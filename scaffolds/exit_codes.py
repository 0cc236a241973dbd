"""What the exit code of every run command means: scaffolds, ``scaffolds.demo`` and ``scaffolds.ablate``.

| code | meaning |
| --- | --- |
| 0 | a normal end: submitted, a time, wall-clock, step or cost limit, too many malformed tool calls, or
|   | ``model_exhausted`` (how a replayed run ends). A weak model that writes no working code
|   | ends normally. |
| 1 | the run ended in ``model_error`` or ``harness_error``; for a grid, at least one run did
|   | (or crashed), and the summary names them |
| 2 | bad input, or a set-up that failed before the run started |
| 130 | interrupted (Ctrl-C or SIGTERM) |
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

OK = 0
FAILED = 1
BAD_INPUT = 2
INTERRUPTED = 130

FAILED_STATUSES = frozenset({"model_error", "harness_error"})
"""Run statuses that are not a normal end: the model or the harness broke."""

HELP = (
    "exit codes: 0 a normal end (submitted, a time/wall/step/cost limit, model_exhausted), "
    "1 the run ended in model_error or harness_error, 2 bad input or a failed set-up, "
    "130 interrupted"
)


def for_status(status: str) -> int:
    """The exit code of a command whose one run ended with ``status``."""
    if status == "interrupted":
        return INTERRUPTED
    return FAILED if status in FAILED_STATUSES else OK


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@contextmanager
def sigterm_interrupts() -> Iterator[None]:
    """Within this block SIGTERM stops the command the way Ctrl-C does: the run ends
    ``interrupted``, its record finished, and the command exits 130."""
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
