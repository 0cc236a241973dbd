"""What a run's record proves about its grading: the ``integrity`` block of ``run.json``.

The rule: no score computed from the private answers reaches the agent or the search. A run
may read the answers only through ``Task.validate`` (valid or not, with a message, as
upstream's validation server answers), and each such call is counted, the agent's
``validate_submission`` calls apart from the harness's own (AIDE's check of each node). The
score comes once, after the sandbox closed and every agent process ended:
``Integrity.guard`` makes ``task.grade`` of the run's task raise ``IntegrityViolation`` before
then, and records the attempt, so a run whose scaffold calls it (even one that swallows the
exception) ends ``harness_error`` with the violation named.

The block (``to_dict``) holds the time the sandbox closed and the time grading began, the
validation counts, how the final submission was chosen (``answer``, ``best_node``,
``last_file``), any violations, and copies of what ``run.json`` records elsewhere that a
reader checks beside it (the agent's network, the answers exposed to it). A record without
the block (written before ``format_version`` 2) is "unverified" to the report.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scaffolds.record import now_iso

Validator = Callable[[Path], tuple[bool, str]]


class IntegrityViolation(Exception):
    """Something tried to score the run from the private answers while its sandbox was open."""


@dataclass
class Integrity:
    """One run's integrity facts, kept in ``run.json`` (and read back on resume)."""

    chosen_by: str = "last_file"
    """How the graded submission was chosen: ``answer`` (the agent's answer call),
    ``best_node`` (AIDE's best node by the metric its own code printed) or ``last_file``
    (whatever was last written to the submission path)."""
    validations: dict[str, int] = field(default_factory=lambda: {"agent": 0, "harness": 0})
    sandbox_closed_at: str | None = None
    grading_started_at: str | None = None
    violations: list[str] = field(default_factory=list)

    @classmethod
    def from_record(cls, saved: Any) -> Integrity:
        """The block a resumed run left (counts and violations carry over), else a new one."""
        if not isinstance(saved, dict):
            return cls()
        counts = saved.get("validations") or {}
        return cls(
            chosen_by=str(saved.get("chosen_by") or "last_file"),
            validations={k: int(counts.get(k) or 0) for k in ("agent", "harness")},
            violations=[str(v) for v in saved.get("violations") or []],
        )

    def counted(self, validate: Validator, who: str) -> Validator:
        """``validate``, counting each call as ``who``'s (``agent`` or ``harness``)."""

        def call(path: Path) -> tuple[bool, str]:
            self.validations[who] += 1
            return validate(path)

        return call

    def guard(self, task: Any) -> None:
        """Make ``task.grade`` refuse, and record the attempt, until the sandbox has closed;
        the first call after that stamps ``grading_started_at``. The gate shadows the method
        on this task object only (tasks are resolved afresh for each run)."""
        grade = task.grade

        def gated(*args: Any, **kwargs: Any) -> Any:
            if self.sandbox_closed_at is None:
                violation = "task.grade was called while the sandbox was open"
                self.violations.append(f"{violation} ({now_iso()})")
                raise IntegrityViolation(f"{violation}: a score from the private answers "
                                         "cannot reach the agent or the search")  # fmt: skip
            if self.grading_started_at is None:
                self.grading_started_at = now_iso()
            return grade(*args, **kwargs)

        object.__setattr__(task, "grade", gated)

    def sandbox_closed(self) -> None:
        self.sandbox_closed_at = now_iso()

    def violation(self) -> str | None:
        """The first violation, worded for the run's error; None when there is none."""
        if not self.violations:
            return None
        more = f" (and {len(self.violations) - 1} more)" if len(self.violations) > 1 else ""
        return f"integrity violation: {self.violations[0]}{more}"

    def to_dict(self, summary: dict[str, Any]) -> dict[str, Any]:
        """The block for ``run.json``; ``summary`` is the record's own, for the copies."""
        sandbox = summary.get("sandbox") or {}
        return {
            "sandbox_closed_at": self.sandbox_closed_at,
            "grading_started_at": self.grading_started_at,
            "validations": dict(self.validations),
            "chosen_by": self.chosen_by,
            "violations": list(self.violations),
            "agent_network": sandbox.get("network") if isinstance(sandbox, dict) else None,
            "answers_exposed": len(summary.get("answers_exposed") or []),
        }


def verify(record: dict[str, Any]) -> str | None:
    """Why a finished run's record does not show that no score from the private answers
    reached its agent; None when it does. Checked by the report for every run."""
    block = record.get("integrity")
    if not isinstance(block, dict):
        version = record.get("format_version")
        return f"unverified: the record has no integrity block (format_version {version})"
    if block.get("violations"):
        return f"integrity violation: {block['violations'][0]}"
    closed, graded = block.get("sandbox_closed_at"), block.get("grading_started_at")
    if graded is not None and (closed is None or str(graded) < str(closed)):
        return f"graded at {graded}, before the sandbox closed ({closed})"
    if record.get("answers_exposed"):
        return "the private answers were exposed to the agent (--allow-exposed-answers)"
    return None
