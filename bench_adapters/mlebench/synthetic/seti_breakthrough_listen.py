"""seti-breakthrough-listen: radio-telescope cadences, each six spectrograms (time x frequency)
observed on, off, on, off, on, off the target star. ``target`` is 1 (about 10%, as on Kaggle)
when a "needle" (a narrow-band signal drifting in frequency) shows in the three on-target
observations only; interference (a steady line in all six) and noise appear in both classes.

Public: ``train_labels.csv`` (``id,target``), ``train/<id[0]>/<id>.npy`` and
``test/<id[0]>/<id>.npy`` (float16, shape (6, time, frequency)), ``old_leaky_data/`` (a small
stand-in for the first release Kaggle withdrew: ``train_labels_old.csv`` and
``train_old/<id[0]>/<id>.npy`` of other cadences), ``sample_submission.csv`` (``id,target`` =
0.5). Private: ``test.csv`` (``id,target``). Ids are 15 hex digits; rows are in the shuffled
order of upstream's split. Payload cap: ``side`` frequency channels and ``side * 273 // 256``
time steps (Kaggle: 256 and 273).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, at_least, hex_ids, split

POSITIVE_SHARE = 0.1
OLD_SHARE = 0.05
"""Size of ``old_leaky_data`` relative to the training set."""


def cadence(rng: np.random.Generator, side: int, needle: bool) -> np.ndarray:
    steps = max(2, side * 273 // 256)
    data = rng.chisquare(4, (6, steps, side)).astype(np.float32) / 4
    if rng.random() < 0.3:  # interference: a steady line in every observation
        data[:, :, rng.integers(side)] += rng.uniform(1, 3)
    if needle:
        start, drift = rng.uniform(0, side), rng.uniform(-0.5, 0.5) * side / steps
        strength = rng.uniform(1.5, 4)
        for observation in (0, 2, 4):
            for t in range(steps):
                channel = int(start + drift * (observation * steps + t)) % side
                data[observation, t, channel] += strength
    return data.astype(np.float16)


def write_cadences(rng: np.random.Generator, folder: Path, frame: pd.DataFrame, side: int) -> None:
    for cadence_id, target in zip(frame["id"], frame["target"], strict=True):
        path = folder / cadence_id[0] / f"{cadence_id}.npy"
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, cadence(rng, side, bool(target)))


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n_old = max(2, round(size.n_train * OLD_SHARE))
    n = size.n_train + size.n_test
    every = hex_ids(rng, n + n_old, 15)  # distinct, in random order
    ids, old_ids = np.sort(every[:n]), np.sort(every[n:])  # Kaggle's CSVs are sorted by id
    labels = (rng.random(n) < POSITIVE_SHARE).astype(np.int64)
    frame = pd.DataFrame({"id": ids, "target": labels})
    train_rows, test_rows = split(rng, n, size.n_test)
    for part in (train_rows, test_rows):  # both classes in each file (AUC needs both)
        frame.loc[part, "target"] = at_least(frame["target"].to_numpy()[part], 2, rng)
    train, test = frame.iloc[train_rows], frame.iloc[test_rows]
    write_cadences(rng, public / "train", train, size.side)
    write_cadences(rng, public / "test", test, size.side)
    train.to_csv(public / "train_labels.csv", index=False)
    test.to_csv(private / "test.csv", index=False)
    test.assign(target=0.5).to_csv(public / "sample_submission.csv", index=False)

    old_labels = at_least(rng.random(n_old) < POSITIVE_SHARE, 1, rng)
    old = pd.DataFrame({"id": old_ids, "target": old_labels})
    (public / "old_leaky_data").mkdir()
    old.to_csv(public / "old_leaky_data" / "train_labels_old.csv", index=False)
    write_cadences(rng, public / "old_leaky_data" / "train_old", old, size.side)
