"""``scaffolds.integrity.verify``: which records show that no score from the private answers
reached the agent, and why the others do not."""

from __future__ import annotations

from typing import Any

from scaffolds.integrity import Integrity, verify

CLOSED, GRADED = "2026-01-01T10:00:00.000+00:00", "2026-01-01T10:00:01.500+00:00"


def record(**block: Any) -> dict[str, Any]:
    integrity = Integrity(sandbox_closed_at=CLOSED, grading_started_at=GRADED)
    summary: dict[str, Any] = {"format_version": 2, "answers_exposed": []}
    return {**summary, "integrity": {**integrity.to_dict(summary), **block}}


def test_a_clean_record_verifies_and_each_fault_is_named() -> None:
    assert verify(record()) is None
    assert verify(record(grading_started_at=None)) is None  # --grade-later: not graded here
    early = verify(record(grading_started_at="2026-01-01T09:59:59.000+00:00"))
    assert early is not None and early.startswith("graded at 2026-01-01T09:59:59")
    assert "before the sandbox closed" in (verify(record(sandbox_closed_at=None)) or "")
    assert (verify(record(violations=["task.grade was called"])) or "").startswith(
        "integrity violation: task.grade was called"
    )
    exposed = {**record(), "answers_exposed": [{"path": "/data/private"}]}
    assert "exposed" in (verify(exposed) or "")
    old = {"format_version": 1, "status": "submitted"}
    assert verify(old) == "unverified: the record has no integrity block (format_version 1)"


def test_counts_and_violations_carry_over_a_resume() -> None:
    first = Integrity(chosen_by="answer", validations={"agent": 4, "harness": 1})
    first.violations.append("task.grade was called while the sandbox was open")
    again = Integrity.from_record(first.to_dict({}))
    assert again.validations == {"agent": 4, "harness": 1} and again.chosen_by == "answer"
    assert again.violations == first.violations and again.sandbox_closed_at is None
    assert Integrity.from_record(None) == Integrity()
