"""Medal thresholds on real leaderboards, checked against the table rules worked by hand."""

from __future__ import annotations

import csv
import statistics
from pathlib import Path

import pytest

from bench_adapters import Leaderboard, LeaderboardError, medal_positions

TAM = Path(__file__).resolve().parents[3] / "shared" / "reference" / "tam-lite"

# The 8 leaderboards that are MLE-bench's own: (folder, teams, gold, silver, bronze positions,
# is_lower_better), the positions worked out by hand from upstream's team-count table.
MLEBENCH_BOARDS = [
    # 81 teams (1-99): max(1, int(0.1*81))=8, int(0.2*81)=16, int(0.4*81)=32
    ("audio/easy", 81, 8, 16, 32, False),  # mlsp-2013-birds, AUC
    # 1314 teams (>=1000): 10+int(0.002*1314)=12, int(0.05*1314)=65, int(0.1*1314)=131
    ("audio/medium", 1314, 12, 65, 131, False),  # tensorflow-speech, accuracy
    # 162 teams (100-249): 10, int(0.2*162)=32, int(0.4*162)=64
    ("image/easy", 162, 10, 32, 64, True),  # denoising-dirty-documents, RMSE
    # 3330 teams: 10+int(6.66)=16, int(166.5)=166, int(333.0)=333
    ("image/medium", 3330, 16, 166, 333, True),  # statoil, log loss
    # 19 teams: max(1, int(1.9))=1, int(3.8)=3, int(7.6)=7
    ("multimodal/easy", 19, 1, 3, 7, True),  # multi-modal-gesture-recognition
    # 1636 teams: 10+int(3.272)=13, int(81.8)=81, int(163.6)=163
    ("tabular/hard", 1636, 13, 81, 163, True),  # stanford-covid-vaccine, MCRMSE
    # 261 teams (250-999): 10+int(0.522)=10, 50, 100
    ("text/easy", 261, 10, 50, 100, False),  # text-normalization (en), accuracy
    # 1688 teams: 10+int(3.376)=13, int(84.4)=84, int(168.8)=168
    ("text/medium", 1688, 13, 84, 168, True),  # lmsys-chatbot-arena, log loss
]


def _scores(path: Path) -> list[float]:
    """The score column read with the csv module only (independent of the code under test)."""
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    key = next(k for k in rows[0] if k.strip().lower() == "score")
    return [float(r[key]) for r in rows]


@pytest.mark.parametrize(("folder", "teams", "gold", "silver", "bronze", "lower"), MLEBENCH_BOARDS)
def test_thresholds_on_mlebench_leaderboards(
    folder: str, teams: int, gold: int, silver: int, bronze: int, lower: bool
) -> None:
    path = TAM / folder / "leaderboard.csv"
    scores = _scores(path)
    board = Leaderboard.from_csv(path)

    assert board.n_teams == len(scores) == teams
    assert medal_positions(teams) == (gold, silver, bronze)
    assert board.is_lower_better is lower
    t = board.thresholds()
    assert (t.gold, t.silver, t.bronze) == (
        scores[gold - 1],
        scores[silver - 1],
        scores[bronze - 1],
    )
    assert t.median == pytest.approx(statistics.median(scores), abs=0, rel=1e-12)

    # Medals are inclusive at each threshold and exclusive of each other.
    m = board.medals(t.gold)
    assert (m.gold, m.silver, m.bronze, m.any) == (True, False, False, True)
    if t.silver != t.gold:
        m = board.medals(t.silver)
        assert (m.gold, m.silver, m.bronze) == (False, True, False)
    if t.bronze != t.silver:
        m = board.medals(t.bronze)
        assert (m.gold, m.silver, m.bronze) == (False, False, True)
    # above_median is strict.
    assert board.medals(t.median).above_median is False
    nudge = -1e-9 if lower else 1e-9
    assert board.medals(t.median + nudge * max(1.0, abs(t.median))).above_median is True


@pytest.mark.parametrize(
    "path", sorted(TAM.glob("*/*/leaderboard.csv")), ids=lambda p: p.parent.as_posix()[-20:]
)
def test_every_export_format_parses(path: Path) -> None:
    """BOM + Rank/TeamId/Score, Rank/Score/..., and MLE-bench's own format all read the same way."""
    scores = _scores(path)
    board = Leaderboard.from_csv(path)
    assert board.scores == tuple(scores)
    assert board.is_lower_better is (scores[0] < scores[-1])


def test_team_count_table_boundaries() -> None:
    assert medal_positions(1) == (1, 1, 1)
    assert medal_positions(99) == (9, 19, 39)
    assert medal_positions(100) == (10, 20, 40)
    assert medal_positions(249) == (10, 49, 99)
    assert medal_positions(250) == (10, 50, 100)
    assert medal_positions(999) == (11, 50, 100)
    assert medal_positions(1000) == (12, 50, 100)
    with pytest.raises(LeaderboardError):
        medal_positions(0)


def test_missing_or_nan_score_wins_nothing_and_earns_zero() -> None:
    board = Leaderboard(tuple(float(s) for s in range(100, 0, -1)))  # higher is better
    for score in (None, float("nan")):
        m = board.medals(score)
        assert (m.gold, m.silver, m.bronze, m.above_median) == (False, False, False, False)
        assert board.normalized_reward(score) == 0.0
        assert board.rank_pct(score) == 0.0


def test_normalized_reward_and_rank_pct_both_directions() -> None:
    higher = Leaderboard((10.0, 8.0, 6.0, 4.0, 2.0))  # median 6, best 10
    assert higher.normalized_reward(8.0) == 0.5
    assert higher.normalized_reward(12.0) == 1.0
    assert higher.normalized_reward(1.0) == 0.0
    assert higher.rank_pct(7.0) == 60.0  # beats 6, 4, 2
    lower = Leaderboard((1.0, 2.0, 3.0, 4.0, 5.0))  # median 3, best 1
    assert lower.is_lower_better
    assert lower.normalized_reward(2.0) == 0.5
    assert lower.normalized_reward(0.5) == 1.0
    assert lower.rank_pct(2.5) == 60.0


def test_unusable_leaderboards_raise_a_clear_error(tmp_path: Path) -> None:
    lfs = tmp_path / "lfs.csv"
    lfs.write_text("version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n")
    no_score = tmp_path / "noscore.csv"
    no_score.write_text("teamId,points\n1,2\n")
    empty = tmp_path / "empty.csv"
    empty.write_text("score\n")
    for path, words in ((lfs, "LFS"), (no_score, "no score column"), (empty, "no rows")):
        with pytest.raises(LeaderboardError, match=words):
            Leaderboard.from_csv(path)


def test_reference_leaderboards_are_all_there() -> None:
    """Guards the parametrised tests above against silently running on nothing."""
    assert len(sorted(TAM.glob("*/*/leaderboard.csv"))) == 18
