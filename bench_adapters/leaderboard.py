"""Leaderboards and the medal rules upstream MLE-bench applies to them.

Rules (upstream ``Grader.rank_score``): rows are taken in file order, best first;
``is_lower_better`` is ``first score < last score``; thresholds are the scores at 1-based
positions from the team-count table below; the median is the pandas median over all scores;
medals are inclusive and exclusive of each other, ``above_median`` is strict.

Real exports come in several shapes (MLE-bench's ``scoreNullable,...,score,hasScore``, Kaggle's
``\\ufeffRank,TeamId,...,Score,...``, ``Rank,Score,...``): all are read, by finding the score column
case-insensitively after stripping a byte-order mark.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from bench_adapters.errors import LeaderboardError

SCORE_COLUMNS = ("score", "privatescore", "private_score", "publicscore", "public_score")
"""Accepted names of the score column, lower-cased, in order of preference."""


def medal_positions(n_teams: int) -> tuple[int, int, int]:
    """1-based (gold, silver, bronze) positions for a leaderboard of ``n_teams`` rows."""
    if n_teams < 1:
        raise LeaderboardError("a leaderboard needs at least one team")
    if n_teams < 100:
        return max(1, int(n_teams * 0.1)), max(1, int(n_teams * 0.2)), max(1, int(n_teams * 0.4))
    if n_teams < 250:
        return 10, max(1, int(n_teams * 0.2)), max(1, int(n_teams * 0.4))
    if n_teams < 1000:
        return 10 + int(n_teams * 0.002), 50, 100
    return 10 + int(n_teams * 0.002), max(1, int(n_teams * 0.05)), max(1, int(n_teams * 0.1))


@dataclass(frozen=True)
class Thresholds:
    gold: float
    silver: float
    bronze: float
    median: float


@dataclass(frozen=True)
class Medals:
    gold: bool
    silver: bool
    bronze: bool
    above_median: bool

    @property
    def any(self) -> bool:
        return self.gold or self.silver or self.bronze


@dataclass(frozen=True)
class Leaderboard:
    """The score column of a leaderboard, in file order (best first)."""

    scores: tuple[float, ...]
    source: str = ""

    @classmethod
    def from_csv(cls, path: Path) -> Leaderboard:
        head = path.read_bytes()[:64]
        if head.startswith(b"version https://git-lfs"):
            raise LeaderboardError(
                f"{path} is a Git LFS pointer; run `git lfs pull` in the checkout"
            )
        try:
            frame = pd.read_csv(path, encoding="utf-8-sig")
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as e:
            raise LeaderboardError(f"{path} is not a readable CSV: {e}") from e
        by_name = {str(c).strip().lower(): c for c in frame.columns}
        column = next((by_name[n] for n in SCORE_COLUMNS if n in by_name), None)
        if column is None:
            raise LeaderboardError(f"{path} has no score column (columns: {list(frame.columns)})")
        scores = pd.to_numeric(frame[column], errors="coerce")
        if len(scores) == 0:
            raise LeaderboardError(f"{path} has no rows")
        return cls(tuple(float(s) for s in scores), source=str(path))

    @property
    def n_teams(self) -> int:
        return len(self.scores)

    @property
    def is_lower_better(self) -> bool:
        return bool(self.scores[0] < self.scores[-1])

    @property
    def best(self) -> float:
        finite = [s for s in self.scores if not math.isnan(s)]
        if not finite:
            return math.nan
        return min(finite) if self.is_lower_better else max(finite)

    def thresholds(self) -> Thresholds:
        gold, silver, bronze = medal_positions(self.n_teams)
        median = pd.Series(self.scores, dtype="float64").median()
        at = self.scores
        return Thresholds(
            float(at[gold - 1]), float(at[silver - 1]), float(at[bronze - 1]), float(median)
        )

    def _beats_or_ties(self, score: float, threshold: float) -> bool:
        return score <= threshold if self.is_lower_better else score >= threshold

    def medals(self, score: float | None) -> Medals:
        """Upstream's medal flags for ``score`` (all false for a missing or NaN score)."""
        if score is None:
            return Medals(False, False, False, False)
        t = self.thresholds()
        gold = self._beats_or_ties(score, t.gold)
        silver = not gold and self._beats_or_ties(score, t.silver)
        bronze = not gold and not silver and self._beats_or_ties(score, t.bronze)
        above = score < t.median if self.is_lower_better else score > t.median
        return Medals(bool(gold), bool(silver), bool(bronze), bool(above))

    def normalized_reward(self, score: float | None) -> float:
        """(score - median) / (best - median), clipped to [0, 1]; 0 for a missing or NaN score."""
        if score is None or math.isnan(score):
            return 0.0
        median, best = self.thresholds().median, self.best
        if math.isnan(median) or math.isnan(best):
            return 0.0
        if best == median:
            return 1.0 if self._beats_or_ties(score, best) else 0.0
        return min(1.0, max(0.0, (score - median) / (best - median)))

    def rank_pct(self, score: float | None) -> float:
        """Percentage (0-100) of leaderboard teams whose score ``score`` strictly beats."""
        if score is None or math.isnan(score):
            return 0.0
        better = (lambda s: score < s) if self.is_lower_better else (lambda s: score > s)
        beaten = sum(1 for s in self.scores if better(s))
        return round(100.0 * beaten / self.n_teams, 4)
