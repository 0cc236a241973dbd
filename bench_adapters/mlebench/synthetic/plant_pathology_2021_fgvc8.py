"""plant-pathology-2021-fgvc8: photographs of apple leaves, labelled with one of Kaggle's 12
combinations of healthy, scab, frog_eye_leaf_spot, rust, complex and powdery_mildew (in
Kaggle's shares). Each disease leaves its own marks on a green leaf: dark olive patches (scab),
orange spots (rust), brown rings with pale centres (frog eye), white dust (powdery mildew),
large brown dead areas (complex).

Public: ``train.csv`` (``image,labels``, names space-separated), ``train_images/<image>``,
``test_images/<image>``, ``sample_submission.csv`` (``image,labels`` = ``healthy``). Private:
``answers.csv`` (``image,labels``). Image names are 16 hex digits and ``.jpg``; rows are in the
shuffled order of upstream's split (20% test). There is no public test table.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size, hex_ids, split
from .imaging import Canvas, blob, jitter, save

COMBINATIONS = {
    "scab": 4826,
    "healthy": 4624,
    "frog_eye_leaf_spot": 3181,
    "rust": 1860,
    "complex": 1602,
    "powdery_mildew": 1184,
    "scab frog_eye_leaf_spot": 686,
    "scab frog_eye_leaf_spot complex": 200,
    "frog_eye_leaf_spot complex": 165,
    "rust frog_eye_leaf_spot": 120,
    "rust complex": 97,
    "powdery_mildew complex": 87,
}
"""Kaggle's training images per label combination (18,632 in all)."""


def draw(rng: np.random.Generator, side: int, labels: str) -> Image.Image:
    height = round(side * 2 / 3)  # Kaggle's photographs are 3:2 landscape
    canvas = Canvas(side, height, jitter(rng, (90, 80, 60), 30))
    cx, cy = rng.uniform(0.4, 0.6, 2)
    canvas.polygon(blob(rng, cx, cy, 0.32, 0.1, n=20), jitter(rng, (70, 140, 50), 20))
    names = labels.split()

    def spot() -> tuple[float, float]:
        return cx + rng.uniform(-0.22, 0.22), cy + rng.uniform(-0.22, 0.22)

    if "complex" in names:
        for _ in range(rng.integers(1, 3)):
            canvas.polygon(blob(rng, *spot(), 0.09, 0.5), jitter(rng, (120, 80, 40), 15))
    if "scab" in names:
        for _ in range(rng.integers(3, 7)):
            canvas.polygon(blob(rng, *spot(), 0.05, 0.4), jitter(rng, (60, 60, 30), 10))
    if "rust" in names:
        for _ in range(rng.integers(4, 10)):
            canvas.ellipse(*spot(), 0.025, 0.04, jitter(rng, (235, 140, 30), 15))
    if "frog_eye_leaf_spot" in names:
        for _ in range(rng.integers(3, 7)):
            x, y = spot()
            canvas.ellipse(x, y, 0.035, 0.05, jitter(rng, (90, 45, 25), 10))
            canvas.ellipse(x, y, 0.015, 0.022, jitter(rng, (215, 200, 150), 10))
    if "powdery_mildew" in names:
        for _ in range(rng.integers(2, 5)):
            canvas.polygon(blob(rng, *spot(), 0.07, 0.3), jitter(rng, (235, 235, 225), 10))
    return canvas.finish(rng, noise=7, blur=0.5)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    names = list(COMBINATIONS)
    shares = np.array(list(COMBINATIONS.values()), float)
    labels = rng.choice(len(names), n, p=shares / shares.sum())
    train_rows, test_rows = split(rng, n, size.n_test)
    for rows in (train_rows, test_rows):  # the six single labels in each table
        labels[rows[:6]] = np.arange(6)[: len(rows)]
    frame = pd.DataFrame(
        {
            "image": [f"{h}.jpg" for h in hex_ids(rng, n, 16)],
            "labels": np.array(names)[labels],
        }
    )
    for folder, rows in (("train_images", train_rows), ("test_images", test_rows)):
        for row in rows:
            image = draw(rng, size.side, frame["labels"].iat[row])
            save(image, public / folder / frame["image"].iat[row])
    frame.iloc[train_rows].to_csv(public / "train.csv", index=False)
    answers = frame.iloc[test_rows]
    answers.to_csv(private / "answers.csv", index=False)
    answers.assign(labels="healthy").to_csv(public / "sample_submission.csv", index=False)
