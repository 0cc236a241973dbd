"""Rank percentile with upstream ScoreRank semantics, on the real leaderboards."""

from __future__ import annotations

import json

import pytest

from bench_adapters.tam import board, rank_score
from bench_adapters.tam.rank import Board


def test_strictly_better_count_plus_one_ties_at_the_top_of_the_block() -> None:
    lb = board("audio/hard")  # 1391 rows, 121 distinct values: ties everywhere
    value = 0.6
    better = sum(s > value for s in lb.scores)
    tied = sum(s == value for s in lb.scores)
    assert tied > 1
    place = rank_score("audio/hard", value)
    assert place.rank == better + 1 and place.participants == 1391
    assert place.rank_pct == pytest.approx((better + 1) / 1391)
    assert rank_score("audio/hard", 0.6000001).rank == place.rank  # just above: same place
    assert rank_score("audio/hard", 0.5999999).rank == better + tied + 1


def test_the_best_and_beyond_rank_first_worse_than_all_is_capped_at_n() -> None:
    assert rank_score("tabular/easy", 0.0).to_dict() == {
        "rank": 1,
        "participants": 1485,
        "rank_pct": 1 / 1485,
    }
    assert rank_score("tabular/easy", 1.38506).rank == 1  # ties the winner
    # the last row is an extreme outlier (24,987,861.7): a worse score still ranks N, not N+1
    assert rank_score("tabular/easy", 1e9).rank == 1485
    assert rank_score("tabular/easy", 30.0).rank == 1484  # only rows 1484-1485 are worse
    assert rank_score("multimodal/hard", -1e41).rank_pct == 1.0  # below row 398 = -3.0e40
    assert rank_score("multimodal/hard", -1000.0).rank == 378  # rows 378-398 are < -1000


def test_host_rows_with_rank_zero_are_counted_as_participants() -> None:
    # tabular/medium has Kaggle "Rank = 0" rows (2040 and 2362); they are on the board
    lb = board("tabular/medium")
    assert len(lb.scores) == 2424 and lb.scores[2039] == pytest.approx(0.88643)
    assert rank_score("tabular/medium", 0.0).rank == 2362  # zeros start at row 2362


def test_lower_is_better_boards_and_non_finite_scores() -> None:
    assert rank_score("image/medium", 0.08227).rank == 1
    assert rank_score("image/medium", 0.3).rank_pct < rank_score("image/medium", 0.5).rank_pct
    with pytest.raises(ValueError, match="finite"):
        rank_score("image/medium", float("nan"))


def test_rows_whose_score_does_not_parse_are_skipped() -> None:
    lb = Board.from_text("\ufeffRank,Score\n1,0.9\n2,n/a\n3,\n4,0.5\n")
    assert lb.scores == (0.9, 0.5) and lb.rank(0.7).rank == 2
    with pytest.raises(ValueError, match="no Score column"):
        Board.from_text("a,b\n1,2\n")


def test_rank_command_prints_json(run_cli_tam) -> None:
    result = run_cli_tam("rank", "--task", "tam/graph/hard", "--score", "0.25")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"rank": 2, "participants": 59, "rank_pct": 2 / 59}
    bad = run_cli_tam("rank", "--task", "tam/graph/nope", "--score", "1")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "not a TAM task" in bad.stderr


def test_rank_command_takes_a_negative_score_in_either_form(run_cli_tam) -> None:
    # multimodal/hard's board ends at -3.0e40 (row 398): -7.6e8 ranks just above it
    for argv in (["--score", "-7.6e8"], ["--score=-7.6e8"]):
        result = run_cli_tam("rank", "--task", "tam/multimodal/hard", *argv)
        assert result.returncode == 0, (argv, result.stderr)
        assert json.loads(result.stdout)["rank"] == 397
    assert "--score=-7.6e8" in run_cli_tam("rank", "--help").stdout
