"""Grade reports: upstream's ``CompetitionReport`` keys in upstream's order, plus two of ours.

``normalized_reward``: (score - median) / (best - median) clipped to [0, 1], 0 when invalid.
``leaderboard_rank_pct``: the percentage (0-100) of leaderboard teams the score strictly beats.
Without a leaderboard every medal field, both thresholds and both extras are null.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bench_adapters.leaderboard import Leaderboard

REPORT_KEYS = (
    "competition_id",
    "score",
    "gold_threshold",
    "silver_threshold",
    "bronze_threshold",
    "median_threshold",
    "any_medal",
    "gold_medal",
    "silver_medal",
    "bronze_medal",
    "above_median",
    "submission_exists",
    "valid_submission",
    "is_lower_better",
    "created_at",
    "submission_path",
    "normalized_reward",
    "leaderboard_rank_pct",
)

SUMMARY_KEYS = (
    "total_runs",
    "total_runs_with_submissions",
    "total_valid_submissions",
    "total_medals",
    "total_gold_medals",
    "total_silver_medals",
    "total_bronze_medals",
    "total_above_median",
    "competition_reports",
)


def build_report(
    *,
    competition_id: str,
    score: float | None,
    submission_exists: bool,
    submission_path: str,
    is_lower_better: bool,
    leaderboard: Leaderboard | None,
    created_at: datetime | None = None,
) -> dict[str, Any]:
    """One report dict, JSON-ready, keys in :data:`REPORT_KEYS` order."""
    medal_fields: dict[str, Any]
    if leaderboard is None:
        medal_fields = dict.fromkeys(REPORT_KEYS[2:11])
        extras: dict[str, Any] = {"normalized_reward": None, "leaderboard_rank_pct": None}
    else:
        t = leaderboard.thresholds()
        m = leaderboard.medals(score)
        medal_fields = {
            "gold_threshold": t.gold,
            "silver_threshold": t.silver,
            "bronze_threshold": t.bronze,
            "median_threshold": t.median,
            "any_medal": m.any,
            "gold_medal": m.gold,
            "silver_medal": m.silver,
            "bronze_medal": m.bronze,
            "above_median": m.above_median,
        }
        extras = {
            "normalized_reward": leaderboard.normalized_reward(score),
            "leaderboard_rank_pct": leaderboard.rank_pct(score),
        }
    report = {
        "competition_id": competition_id,
        "score": float(score) if score is not None else None,
        **medal_fields,
        "submission_exists": bool(submission_exists),
        "valid_submission": score is not None,
        "is_lower_better": bool(is_lower_better),
        "created_at": (created_at or datetime.now()).isoformat(),
        "submission_path": submission_path,
        **extras,
    }
    return {key: report[key] for key in REPORT_KEYS}


def aggregate_reports(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """Upstream's ``grade_jsonl`` summary over many reports (null medal fields count as false)."""

    def total(key: str) -> int:
        return int(sum(bool(r.get(key)) for r in reports))

    gold, silver, bronze = total("gold_medal"), total("silver_medal"), total("bronze_medal")
    return {
        "total_runs": len(reports),
        "total_runs_with_submissions": total("submission_exists"),
        "total_valid_submissions": total("valid_submission"),
        "total_medals": gold + silver + bronze,
        "total_gold_medals": gold,
        "total_silver_medals": silver,
        "total_bronze_medals": bronze,
        "total_above_median": total("above_median"),
        "competition_reports": reports,
    }
