"""The paper's difficulty formula and its open choices, checked against TASKS.md's columns A
(leaderboard range) and B (the metric's range where bounded)."""

from __future__ import annotations

import math

import pytest

from bench_adapters.tam import TASK_IDS, TASKS
from bench_adapters.tam.difficulty import Options, agreement_line, difficulties, difficulty, level

# TASKS.md, "calc. difficulty A / B", in table order (audio, graph, image, multimodal, tabular,
# text; easy, medium, hard).
A = [
    0.31,
    0.43,
    0.38,
    0.38,
    0.33,
    0.41,
    0.27,
    0.36,
    0.49,
    0.23,
    0.38,
    0.26,
    0.32,
    0.36,
    0.36,
    0.28,
    0.33,
    0.51,
]
B = [
    0.29,
    0.50,
    0.65,
    0.45,
    0.67,
    0.88,
    0.27,
    0.36,
    1.01,
    0.23,
    0.82,
    0.26,
    0.32,
    0.37,
    0.36,
    0.25,
    0.33,
    0.77,
]
TABLE_ORDER = [f"{m}/{d}" for m in ("audio", "graph", "image", "multimodal", "tabular", "text") for d in ("easy", "medium", "hard")]  # fmt: skip


def test_the_formula_as_written_reproduces_column_a_and_six_agreements() -> None:
    rows = {r.task: r for r in difficulties()}
    assert [round(rows[t].score, 2) for t in TABLE_ORDER] == pytest.approx(A, abs=0.011)
    assert all(r.level == "easy" for r in rows.values())
    # the best score is the board's own extreme, so the 0.5 term is always 0
    assert all(r.norm_best == pytest.approx(0.0 if low else 1.0, abs=1e-6)
               for r, low in ((r, TASKS[r.task].lower_is_better) for r in rows.values()))  # fmt: skip
    assert agreement_line(list(rows.values())) == "agrees with 6/18 filed labels"


def test_the_metrics_range_reproduces_column_b_and_ten_agreements() -> None:
    rows = {r.task: r for r in difficulties(options=Options(range="metric"))}
    assert [round(rows[t].score, 2) for t in TABLE_ORDER] == pytest.approx(B, abs=0.011)
    assert rows["image/hard"].score > 1  # D is not bounded by 1
    assert agreement_line(list(rows.values())) == "agrees with 10/18 filed labels"
    # unbounded metrics (RMSE, log loss, MCRMSE...) keep the leaderboard's range
    assert rows["tabular/easy"].score == difficulty("tabular/easy").score


def test_the_log_base_moves_only_the_participant_term() -> None:
    for task in ("text/hard", "graph/medium"):
        ten, e = difficulty(task), difficulty(task, Options(log_base=math.e))
        assert e.participant_term == pytest.approx(0.1 * math.log(ten.participants + 1))
        assert e.score - ten.score == pytest.approx(e.participant_term - ten.participant_term)
        assert (e.norm_mean, e.norm_best) == (ten.norm_mean, ten.norm_best)
    agree = sum(r.agrees for r in difficulties(options=Options(log_base=math.e)))
    assert agree == 11  # FACTS.md reports 12/18 for the natural log: not reproduced


def test_trimming_removes_the_outliers_that_squash_norm_mean() -> None:
    plain, trimmed = difficulty("tabular/easy"), difficulty("tabular/easy", Options(trim=3.0))
    assert plain.norm_mean < 1e-3  # one fare of 24,987,861 against a median of 3.6
    assert trimmed.norm_mean > 0.1 and trimmed.participants == plain.participants == 1485
    # FACTS.md reports 11/18 with 3-IQR trimming: not reproduced with Tukey's fences
    assert sum(r.agrees for r in difficulties(options=Options(trim=3.0))) == 6
    both = Options(range="metric", trim=3.0)
    assert sum(r.agrees for r in difficulties(options=both)) == 10
    every = Options(range="metric", trim=3.0, log_base=math.e)
    assert sum(r.agrees for r in difficulties(options=every)) == 9


def test_levels_bins_and_one_task() -> None:
    assert [level(x) for x in (0.6, 0.61, 0.85, 0.851)] == ["easy", "medium", "medium", "hard"]
    assert [r.task for r in difficulties(["graph/hard"])] == ["graph/hard"]
    assert len(difficulties()) == len(TASK_IDS)


def test_difficulty_command_prints_every_task_and_the_agreement(run_cli_tam) -> None:
    out = run_cli_tam("difficulty", "--range", "metric")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[-1] == "agrees with 10/18 filed labels" and len(lines) == 18 + 3
    one = run_cli_tam("difficulty", "--task", "tam/graph/hard", "--log-base", "e", "--trim", "3")
    assert one.stdout.splitlines()[-1].endswith("/1 filed labels")
    assert run_cli_tam("difficulty", "--log-base", "1").returncode == 2
