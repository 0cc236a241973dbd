"""plant-pathology-2020-fgvc7: photographs of apple leaves, each exactly one of healthy,
multiple_diseases, rust or scab (Kaggle's shares). Rust shows as orange spots, scab as dark
olive patches, multiple diseases as both; healthy leaves are plain green.

Public: ``train.csv`` (``image_id,healthy,multiple_diseases,rust,scab``, 0/1), ``test.csv``
(``image_id``), ``images/<image_id>.jpg`` for train and test, ``sample_submission.csv``
(``image_id`` + the four classes, each 0.25). Private: ``test.csv`` (the train columns). Ids
are renumbered ``Train_<i>`` and ``Test_<i>`` in the shuffled order of upstream's split.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size, split
from .imaging import Canvas, blob, jitter, save

CLASSES = ["healthy", "multiple_diseases", "rust", "scab"]
SHARES = [0.28, 0.05, 0.34, 0.33]


def draw(rng: np.random.Generator, side: int, label: str) -> Image.Image:
    height = round(side * 2 / 3)  # Kaggle's photographs are 3:2 landscape
    canvas = Canvas(side, height, jitter(rng, (90, 80, 60), 30))
    cx, cy = rng.uniform(0.4, 0.6, 2)
    canvas.polygon(blob(rng, cx, cy, 0.3, 0.12, n=20), jitter(rng, (70, 140, 50), 20))
    rust = label in ("rust", "multiple_diseases")
    scab = label in ("scab", "multiple_diseases")
    for _ in range(rng.integers(4, 10) if rust else 0):
        x, y = cx + rng.uniform(-0.22, 0.22), cy + rng.uniform(-0.22, 0.22)
        canvas.ellipse(x, y, 0.025, 0.04, jitter(rng, (235, 140, 30), 15))
    for _ in range(rng.integers(3, 7) if scab else 0):
        x, y = cx + rng.uniform(-0.2, 0.2), cy + rng.uniform(-0.2, 0.2)
        canvas.polygon(blob(rng, x, y, 0.05, 0.4), jitter(rng, (60, 60, 30), 10))
    return canvas.finish(rng, noise=7, blur=0.5)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    train_rows, test_rows = split(rng, n, size.n_test)
    labels = rng.choice(4, n, p=SHARES)
    for part in (train_rows, test_rows):  # every class in each file (AUC needs both)
        labels[part[:4]] = np.arange(4)[: len(part)]
    one_hot = np.eye(4, dtype=np.int64)[labels]
    frames = []
    for prefix, rows in (("Train", train_rows), ("Test", test_rows)):
        frame = pd.DataFrame(one_hot[rows], columns=CLASSES)
        frame.insert(0, "image_id", [f"{prefix}_{i}" for i in range(len(rows))])
        for image_id, label in zip(frame["image_id"], labels[rows], strict=True):
            save(draw(rng, size.side, CLASSES[label]), public / "images" / f"{image_id}.jpg")
        frames.append(frame)
    train, answers = frames
    answers.to_csv(private / "test.csv", index=False)
    answers[["image_id"]].assign(**{c: 0.25 for c in CLASSES}).to_csv(
        public / "sample_submission.csv", index=False
    )
    answers[["image_id"]].to_csv(public / "test.csv", index=False)
    train.to_csv(public / "train.csv", index=False)
