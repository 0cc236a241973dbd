"""Rank percentile on a task's leaderboard, with upstream ``ScoreRank.py``'s semantics.

- The board is every row whose score parses as a float, in file order (Kaggle's ``Rank = 0``
  host rows included).
- Higher is better when the first score is >= the last (all 18 Lite boards are monotone).
- ``rank = 1 +`` the number of entries strictly better than the agent's score: a tie puts the
  agent at the top of the tied block. The agent is not inserted; the rank is capped at N.
- ``rank_pct = rank / N``, a fraction in (0, 1]; lower is better, the best possible is 1/N.

Upstream finds the position by bisection, which equals this count on a monotone board; the
count is also right on one that is not.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from functools import cache

from bench_adapters.tam.specs import leaderboard_file


@dataclass(frozen=True)
class Rank:
    rank: int
    participants: int
    rank_pct: float

    def to_dict(self) -> dict[str, float | int]:
        return {"rank": self.rank, "participants": self.participants, "rank_pct": self.rank_pct}


@dataclass(frozen=True)
class Board:
    """The parsed score column of one leaderboard, in file order."""

    scores: tuple[float, ...]

    @classmethod
    def from_text(cls, text: str) -> Board:
        rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
        if not rows:
            raise ValueError("the leaderboard has no rows")
        names = {name.strip().lower(): name for name in rows[0]}
        if "score" not in names:
            raise ValueError(f"the leaderboard has no Score column ({list(rows[0])})")
        scores = []
        for row in rows:
            try:
                value = float(row[names["score"]])
            except (TypeError, ValueError):
                continue  # upstream skips rows whose score does not parse
            if not math.isnan(value):
                scores.append(value)
        if not scores:
            raise ValueError("the leaderboard has no numeric scores")
        return cls(tuple(scores))

    @property
    def higher_is_better(self) -> bool:
        return len(self.scores) == 1 or self.scores[0] >= self.scores[-1]

    @property
    def best(self) -> float:
        return max(self.scores) if self.higher_is_better else min(self.scores)

    def better_than(self, score: float) -> int:
        """How many entries are strictly better than ``score``."""
        if self.higher_is_better:
            return sum(s > score for s in self.scores)
        return sum(s < score for s in self.scores)

    def rank(self, score: float) -> Rank:
        """The agent's place for ``score`` (a finite number)."""
        n = len(self.scores)
        rank = min(self.better_than(score) + 1, n)
        return Rank(rank, n, rank / n)

    def reward(self, score: float) -> float:
        """The fraction of entries that are not strictly better than ``score``, in [0, 1]."""
        return 1.0 - self.better_than(score) / len(self.scores)


@cache
def board(task_id: str) -> Board:
    """The shipped leaderboard of ``task_id`` (``<modality>/<difficulty>``)."""
    return Board.from_text(leaderboard_file(task_id).read_text(encoding="utf-8-sig"))


def rank_score(task_id: str, score: float) -> Rank:
    """``python -m bench_adapters.tam rank``: the place of ``score`` on the task's board."""
    if not math.isfinite(score):
        raise ValueError(f"score must be a finite number, got {score}")
    return board(task_id).rank(score)
