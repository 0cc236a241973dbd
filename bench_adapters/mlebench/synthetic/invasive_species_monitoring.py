"""invasive-species-monitoring: landscape (4:3) photographs of woodland undergrowth;
``invasive`` is 1 when hydrangea grows in it (round heads of small blue-violet florets), about
63% of images as on Kaggle. Ferns and leaves appear in both classes.

Public: ``train_labels.csv.zip`` (``train_labels.csv``: ``name,invasive``),
``sample_submission.csv.zip`` (``sample_submission.csv``: ``name,invasive`` = 0.5, in test
order), ``train.7z`` and ``test.7z`` (``train/<name>.jpg``, ``test/<name>.jpg``). Private:
``answers.csv`` (``name,invasive``) and ``sample_submission.csv``. Names are Kaggle's numbers
1..n; rows are in the shuffled order of upstream's 80/20 split.

Upstream's ``prepare.py`` archives the image folders with py7zr's ``write``, which stores the
folder entry alone, so its real ``train.7z`` and ``test.7z`` hold no images (a known issue);
these archives hold the images that were meant to be there.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size, at_least, split
from .imaging import Canvas, blob, jitter, pair
from .sevenzip import write_7z

SHADE = (60, 80, 45)
FOLIAGE = (70, 120, 50)
FLORET = (110, 120, 200)


def draw(rng: np.random.Generator, side: int, invasive: bool) -> Image.Image:
    canvas = Canvas(side, side * 3 // 4, jitter(rng, SHADE, 20))
    for _ in range(int(rng.integers(6, 12))):
        x, y = rng.uniform(0, 1, 2)
        canvas.polygon(blob(rng, x, y, rng.uniform(0.05, 0.15), 0.4), jitter(rng, FOLIAGE, 25))
    if invasive:
        for _ in range(int(rng.integers(1, 4))):
            cx, cy = pair(rng, 0.2, 0.8)
            radius = rng.uniform(0.07, 0.12)
            for _ in range(12):
                dx, dy = rng.uniform(-radius, radius, 2)
                canvas.ellipse(cx + dx, cy + dy, 0.02, 0.027, jitter(rng, FLORET, 20))
    return canvas.finish(rng, noise=6, blur=0.8)


def _zip_csv(frame: pd.DataFrame, archive: Path, name: str) -> None:
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(name, frame.to_csv(index=False))


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    train_rows, test_rows = split(rng, n, size.n_test)
    labels = (rng.random(n) < 0.63).astype(np.int64)
    for part in (train_rows, test_rows):  # both classes in each file, however small
        labels[part] = at_least(labels[part], 2, rng)
    frame = pd.DataFrame({"name": np.arange(1, n + 1), "invasive": labels})
    train, answers = frame.iloc[train_rows], frame.iloc[test_rows]
    sample = answers.assign(invasive=0.5)
    answers.to_csv(private / "answers.csv", index=False)
    sample.to_csv(private / "sample_submission.csv", index=False)
    _zip_csv(train, public / "train_labels.csv.zip", "train_labels.csv")
    _zip_csv(sample, public / "sample_submission.csv.zip", "sample_submission.csv")
    for folder, rows in (("train", train), ("test", answers)):
        images = []
        for name, label in zip(rows["name"], rows["invasive"], strict=True):
            jpeg = io.BytesIO()
            draw(rng, size.side, bool(label)).save(jpeg, format="JPEG", quality=90)
            images.append((f"{folder}/{name}.jpg", jpeg.getvalue()))
        write_7z(public / f"{folder}.7z", images)
