"""The pieces every baseline script shares: the time budget and its LightGBM callback."""

from __future__ import annotations

import time

import lightgbm as lgb
import numpy as np
import pytest
from lightgbm.basic import EvalResult
from lightgbm.callback import CallbackEnv, EarlyStopException

from baselines.kit import PROBE_ROUND, Budget, StopAtDeadline, metric_line


def env(iteration: int, loss: float) -> CallbackEnv:
    result = EvalResult("valid_0", "l2", loss, False)
    return CallbackEnv(None, {}, iteration, 0, 100, [result])


def test_deadline_stop_keeps_the_best_round_so_far() -> None:
    stop = StopAtDeadline(time.monotonic() + 60)
    for i, loss in enumerate([0.9, 0.5, 0.7]):
        stop(env(i, loss))
    stop.deadline = time.monotonic() - 1
    with pytest.raises(EarlyStopException) as raised:
        stop(env(3, 0.8))
    assert raised.value.best_iteration == 1
    assert raised.value.best_score[0].metric_value == 0.5


def test_lightgbm_trains_one_round_when_the_budget_is_spent(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(500, 4))
    y = x[:, 0] + rng.normal(size=500)
    model = lgb.train(
        {"objective": "regression", "verbose": -1, "num_threads": 1},
        lgb.Dataset(x[:400], y[:400]),
        num_boost_round=500,
        valid_sets=[lgb.Dataset(x[400:], y[400:])],
        callbacks=[StopAtDeadline(Budget(0.0).deadline())],
    )
    assert model.num_trees() == 1 and model.best_iteration == 1
    assert "time budget reached at round 1; keeping round 1" in capsys.readouterr().out


def test_budget_keeps_back_at_most_half_of_what_is_left() -> None:
    budget = Budget(100.0)
    assert budget.deadline(1, reserve_s=10) - time.monotonic() == pytest.approx(90, abs=1)
    assert budget.deadline(3, reserve_s=10) - time.monotonic() == pytest.approx(30, abs=1)
    assert budget.deadline(1, reserve_s=500) - time.monotonic() == pytest.approx(50, abs=1)


def test_metric_line_has_a_fixed_format(capsys: pytest.CaptureFixture[str]) -> None:
    metric_line("rmse", 3.14159265, "5-fold CV")
    assert capsys.readouterr().out == "val rmse 3.14159 (5-fold CV)\n"


def test_deadline_keeps_back_the_measured_cost_of_predicting(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Predicting 10^12 rows could never fit: training stops once the cost is measured."""
    rng = np.random.default_rng(1)
    x = rng.normal(size=(600, 4))
    y = x[:, 0] + rng.normal(size=600)
    stop = StopAtDeadline(Budget(600.0).deadline(), probe=x[500:], rows_to_predict=10**12)
    model = lgb.train(
        {"objective": "regression", "verbose": -1, "num_threads": 1},
        lgb.Dataset(x[:400], y[:400]),
        num_boost_round=500,
        valid_sets=[lgb.Dataset(x[400:500], y[400:500])],
        callbacks=[stop],
    )
    assert model.current_iteration() <= PROBE_ROUND and stop.s_per_row_round > 0
    assert f"time budget reached at round {PROBE_ROUND} (~" in capsys.readouterr().out
