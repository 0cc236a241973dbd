"""ventilator-pressure-prediction: 80 steps per breath, breaths in shuffled order with their
original breath_id, id reset to 1..n per file, u_out 0 (scored) then 1, ``"%.10g"`` floats.
Sizes count rows and must be whole breaths.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import CHUNK_ROWS, Size, spans, write_csv, write_split_files

BREATH_STEPS = 80
_VENTILATOR_FLOATS = "%.10g"


def check_size(size: Size) -> None:
    if size.n_train % BREATH_STEPS or size.n_test % BREATH_STEPS:
        raise ValueError(f"ventilator row counts must be multiples of {BREATH_STEPS}")


def _ventilator_rows(
    rng: np.random.Generator, breath_ids: np.ndarray, first_id: int
) -> pd.DataFrame:
    b, s = len(breath_ids), BREATH_STEPS
    r = rng.choice([5, 20, 50], b)[:, None]
    c = rng.choice([10, 20, 50], b)[:, None]
    dt = rng.uniform(0.0325, 0.0345, (b, s))
    dt[:, 0] = 0.0
    time = np.cumsum(dt, axis=1)
    inspiratory_steps = rng.integers(28, 34, b)[:, None]
    u_out = (np.arange(s)[None, :] >= inspiratory_steps).astype(np.int64)
    amplitude, tau = rng.uniform(5, 60, (b, 1)), rng.uniform(0.05, 0.4, (b, 1))
    u_in = amplitude * (1 - np.exp(-time / tau)) + rng.normal(0, 1, (b, s))
    u_in = np.where(u_out == 1, rng.uniform(0, 5, (b, s)), u_in).clip(0, 100)
    volume = np.cumsum(u_in * dt * (1 - u_out), axis=1)
    pressure = 5 + r * u_in / 100 + 4 * volume / c
    last = inspiratory_steps - 1
    peak = np.take_along_axis(pressure, last, axis=1)
    released = 5 + (peak - 5) * np.exp(-(time - np.take_along_axis(time, last, axis=1)) / 0.25)
    pressure = np.where(u_out == 1, released, pressure) + rng.normal(0, 0.2, (b, s))
    return pd.DataFrame(
        {
            "id": np.arange(first_id, first_id + b * s),
            "breath_id": np.repeat(breath_ids, s),
            "R": np.repeat(r.ravel(), s),
            "C": np.repeat(c.ravel(), s),
            "time_step": time.ravel(),
            "u_in": u_in.ravel(),
            "u_out": u_out.ravel(),
            "pressure": pressure.ravel(),
        }
    )


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n_train, n_test = size.n_train, size.n_test
    test_breaths, train_breaths = n_test // BREATH_STEPS, n_train // BREATH_STEPS
    total = test_breaths + train_breaths
    breath_ids = rng.choice(np.arange(1, max(125_750, 2 * total)), total, replace=False)
    train_ids = breath_ids[test_breaths:]
    per_chunk = CHUNK_ROWS // BREATH_STEPS
    train = (
        _ventilator_rows(rng, train_ids[s], 1 + s.start * BREATH_STEPS)
        for s in spans(train_breaths, per_chunk)
    )
    write_csv(public / "train.csv", train, float_format=_VENTILATOR_FLOATS)
    test = _ventilator_rows(rng, breath_ids[:test_breaths], 1)
    sample = pd.DataFrame({"id": test["id"], "pressure": 0})
    write_split_files(public, private, test, ["pressure"], sample, float_format=_VENTILATOR_FLOATS)
