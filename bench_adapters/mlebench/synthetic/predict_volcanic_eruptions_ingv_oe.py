"""predict-volcanic-eruptions-ingv-oe: ten-sensor seismic segments at 100 Hz, each with the
time left until the volcano erupts (``time_to_eruption``, up to about 49 million in Kaggle's
units). The nearer the eruption, the louder the tremor and the more of it in a low band: the
signal, in each segment's spread and spectrum. About one segment in ten has a sensor that
recorded nothing (a blank column), as on Kaggle.

Public: ``train.csv`` (``segment_id,time_to_eruption``), ``sample_submission.csv``
(``segment_id,time_to_eruption`` = 0, the test segments), ``train/<segment_id>.csv`` and
``test/<segment_id>.csv`` (``sensor_1`` ... ``sensor_10``, integer counts). Private:
``test.csv`` (``segment_id,time_to_eruption``). Segment ids are random integers below 2**31;
a random tenth of the segments is the test set, as upstream's split. Segments hold 3,001
samples (30 s; 301 in fixtures under 1,000 segments) where Kaggle's hold 60,001 (10 min).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size

SENSORS = [f"sensor_{k}" for k in range(1, 11)]
RATE = 100
LONGEST = 49_046_087


def samples(size: Size) -> int:
    return 3_001 if size.n_train + size.n_test >= 1_000 else 301


def segment(rng: np.random.Generator, time_left: float, n: int) -> pd.DataFrame:
    """Ten sensors' counts as floats (a blank sensor is all NaN; the rest are whole)."""
    closeness = 1 - time_left / LONGEST  # 0 far from an eruption, 1 at it
    t = np.arange(n) / RATE
    steps = rng.normal(0, 1, (n, len(SENSORS)))
    hum = steps.cumsum(axis=0) * 0.3 + steps  # a rumble: slow drift plus noise
    hum -= hum.mean(axis=0)
    phase = rng.uniform(0, 6.3, len(SENSORS))
    tremor = np.sin(2 * np.pi * rng.uniform(1, 3) * t[:, None] + phase)
    wave = 150 * (1 + 2 * closeness) * hum + 400 * closeness**2 * tremor
    counts = np.rint(wave + rng.normal(0, 60, wave.shape)) + 0.0  # no "-0" in the file
    if rng.random() < 0.1:
        counts[:, rng.integers(len(SENSORS))] = np.nan
    return pd.DataFrame(counts, columns=SENSORS)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    frame = pd.DataFrame(
        {
            "segment_id": rng.choice(2**31 - 1, n, replace=False) + 1,
            "time_to_eruption": rng.integers(6_000, LONGEST, n),
        }
    )
    order = rng.permutation(n)  # train_test_split: test first, in shuffled order
    answers, train = frame.iloc[order[: size.n_test]], frame.iloc[order[size.n_test :]]
    length = samples(size)
    for folder, rows in (("train", train), ("test", answers)):
        (public / folder).mkdir()
        for segment_id, time_left in rows.itertuples(index=False):
            data = segment(rng, float(time_left), length)
            data.to_csv(public / folder / f"{segment_id}.csv", index=False, float_format="%.0f")
    answers.to_csv(private / "test.csv", index=False)
    train.to_csv(public / "train.csv", index=False)
    answers.assign(time_to_eruption=0).to_csv(public / "sample_submission.csv", index=False)
