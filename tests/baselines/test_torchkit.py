"""The network baselines' training loop keeps its time budget; calibration and devices."""

from __future__ import annotations

import time

import numpy as np
import pytest
import torch

from baselines.kit import Budget
from baselines.torchkit import fit, fit_temperature, pick_device, softmax


@pytest.mark.serial  # its verdict depends on the machine's speed: alone on it
def test_training_stops_in_time_to_predict_and_follows_its_plan(
    capsys: pytest.CaptureFixture[str],
) -> None:
    model = torch.nn.Linear(4, 1)
    x, y = torch.randn(64, 4), torch.randn(64, 1)

    def slow_loss(rows: np.ndarray) -> torch.Tensor:
        time.sleep(0.05)  # a 50 ms step
        return torch.nn.functional.mse_loss(model(x[rows]), y[rows])

    # the first optimizer a process builds imports torch's compiler stack (2.5 s in a fresh
    # process, as the serial phase's first test is): paid before the clock, as a baseline pays
    # it inside its budget with its other imports
    torch.optim.AdamW(model.parameters())
    budget = Budget(3.0)
    steps = fit(model, 64, slow_loss, epochs=1000, batch_size=8, lr=0.01, budget=budget,
                predict_rows=8 * 10, reserve_s=0.5)  # fmt: skip
    assert budget.spent() < 3.0 and 5 < steps < 60  # 1,000 epochs planned, a few dozen fit
    assert "planned steps fit" in capsys.readouterr().out

    quick = fit(model, 64, lambda r: torch.nn.functional.mse_loss(model(x[r]), y[r]),
                epochs=2, batch_size=8, lr=0.01, budget=Budget(60))  # fmt: skip
    assert quick == 16  # two epochs of 8 steps when time is plenty


def test_temperature_flattens_an_overconfident_model() -> None:
    rng = np.random.default_rng(0)
    y = rng.integers(0, 5, 400)
    noise = rng.normal(0, 10, (400, 5))  # confident and uninformative
    t = fit_temperature(noise, y, multiclass=True)
    p = softmax(noise, t)
    loss = -np.log(p[np.arange(400), y]).mean()
    assert t > 10 and loss < np.log(5) + 0.05
    informative = np.eye(5)[y] * 3 + rng.normal(0, 1, (400, 5))
    assert fit_temperature(informative, y, multiclass=True) < 5


def test_devices() -> None:
    assert pick_device("cpu").type == "cpu"
    assert pick_device(None).type == ("cuda" if torch.cuda.is_available() else "cpu")
    if not torch.cuda.is_available():
        with pytest.raises(RuntimeError, match="no CUDA device"):
            pick_device("cuda")
