"""aerial-cactus-identification: 32x32 aerial photographs of sandy ground; ``has_cactus`` is 1
when a columnar cactus (a green bar with a darker rim) stands in it, about 75% of images as on
Kaggle. Shrubs (round, olive) appear in both classes.

Public: ``train.csv`` (``id,has_cactus``), ``train.zip`` and ``test.zip`` holding the
``<id>`` JPEGs at the archive root, ``sample_submission.csv`` (``id,has_cactus`` = 0.5, in
the test order; there is no public ``test.csv``). Private: ``test.csv`` (``id,has_cactus``).
Ids are ``<32 hex digits>.jpg``; rows are in the shuffled order of upstream's split.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, at_least, hex_ids, split, zip_folder
from .imaging import Canvas, jitter, pair, save

SAND = (176, 150, 116)
CACTUS = (74, 112, 60)
SHRUB = (120, 118, 78)


def draw(rng: np.random.Generator, side: int, cactus: bool):  # type: ignore[no-untyped-def]
    canvas = Canvas(side, side, jitter(rng, SAND, 25))
    for _ in range(rng.integers(0, 4)):
        x, y = rng.uniform(0, 1, 2)
        canvas.ellipse(x, y, *pair(rng, 0.05, 0.15), jitter(rng, SHRUB, 15))
    if cactus:
        x, y0 = rng.uniform(0.2, 0.8), rng.uniform(0.0, 0.4)
        y1 = y0 + rng.uniform(0.4, 0.6)
        lean = rng.uniform(-0.15, 0.15)
        width = rng.uniform(0.12, 0.2)
        canvas.line([(x, y0), (x + lean, y1)], jitter(rng, (50, 78, 44), 10), width * 1.4)
        canvas.line([(x, y0), (x + lean, y1)], jitter(rng, CACTUS, 12), width)
    return canvas.finish(rng, noise=6, blur=1.0)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    train_rows, test_rows = split(rng, n, size.n_test)
    labels = (rng.random(n) < 0.75).astype(np.int64)
    for part in (train_rows, test_rows):  # both classes in each file, however small
        labels[part] = at_least(labels[part], 2, rng)
    frame = pd.DataFrame({"id": [f"{h}.jpg" for h in hex_ids(rng, n, 32)], "has_cactus": labels})
    train, test = frame.iloc[train_rows], frame.iloc[test_rows]
    train.to_csv(public / "train.csv", index=False)
    test.to_csv(private / "test.csv", index=False)
    test.assign(has_cactus=0.5).to_csv(public / "sample_submission.csv", index=False)
    for name, rows in (("train", train), ("test", test)):
        folder = public / name
        for image_id, label in zip(rows["id"], rows["has_cactus"], strict=True):
            save(draw(rng, size.side, bool(label)), folder / image_id)
        zip_folder(folder, public / f"{name}.zip")
        shutil.rmtree(folder)
