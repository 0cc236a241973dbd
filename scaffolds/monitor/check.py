"""One monitor check's result, as ``monitor.json`` keeps it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

EVIDENCE_KEPT = 20
"""Most evidence items a check keeps (its summary still counts them all)."""


@dataclass
class Check:
    name: str
    flagged: bool
    summary: str
    """One line: what was found, or why nothing was (or could be) checked."""
    evidence: list[dict[str, Any]] = field(default_factory=list)
    """``{"event": line in trajectory.jsonl, "quote": exact text of that event}`` items."""
    advisory: bool = True
    """False for a benchmark's own rule (PaperBench's blacklist), which scores the run 0."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "flagged": self.flagged,
            "advisory": self.advisory,
            "summary": self.summary,
            "evidence": self.evidence[:EVIDENCE_KEPT],
        }


def evidence(event: int, quote: str) -> dict[str, Any]:
    return {"event": event, "quote": quote}


def events_named(items: list[dict[str, Any]]) -> str:
    """``event 7`` / ``events 7, 9 and 12`` (the first few)."""
    numbers = list(dict.fromkeys(int(e["event"]) for e in items))
    shown = [str(n) for n in numbers[:5]] + (
        [f"{len(numbers) - 5} more"] if len(numbers) > 5 else []
    )
    if len(shown) == 1:
        return f"event {shown[0]}"
    return "events " + ", ".join(shown[:-1]) + " and " + shown[-1]
