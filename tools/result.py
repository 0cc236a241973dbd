"""What running code returns (python cell or shell command), and what a tool call returns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ObservationKind = Literal["ok", "tool_error", "format_error", "harness_error"]


@dataclass
class ExecResult:
    """The outcome of running code in the kernel or a command in bash.

    ``output`` is what the model should read: stdout, stderr and tracebacks in order, capped
    in the middle, followed by a bracketed note when something happened to the process
    (timeout, interrupt, restart).
    """

    output: str
    exit_code: int | None
    """0 on success, 1 for a Python exception, the shell's status for bash; None when the
    code did not finish (timed out, or the kernel died)."""
    timed_out: bool
    duration_s: float
    error: str | None
    """The exception's type name (``"ZeroDivisionError"``), ``"KernelDied"``, or None."""
    restarted: bool = False
    """True when the kernel was restarted during this call, so all its state was lost."""


@dataclass
class Observation:
    """The result of one tool call, as the scaffold records it and shows it to the model."""

    text: str
    kind: ObservationKind
    submitted: bool = False
    """True only when ``answer`` accepted a valid submission: the run ends."""
    duration_s: float = 0.0
    traceback: str | None = None
    """For ``harness_error`` only: the full traceback, for the run record (not for the model)."""
