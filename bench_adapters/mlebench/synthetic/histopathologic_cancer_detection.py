"""histopathologic-cancer-detection: 96x96 patches of stained lymph-node tissue (pink stroma,
scattered purple nuclei); ``label`` is 1 when the centre 32x32 region holds tumour tissue, a
dense cluster of large dark nuclei, as Kaggle labels by the centre. About 40% positives.

Public: ``train_labels.csv`` (``id,label``), ``train/<id>.tif``, ``test/<id>.tif``,
``sample_submission.csv`` (``id,label`` = 0). Private: ``answers.csv`` (``id,label``). Ids
are 40 hex digits. Upstream filters the raw table by the split's ids, so both files keep the
raw (unshuffled) row order.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size, at_least, hex_ids
from .imaging import Canvas, jitter, pair, save


def draw(rng: np.random.Generator, side: int, tumour: bool) -> Image.Image:
    canvas = Canvas(side, side, jitter(rng, (225, 165, 200), 20))
    for _ in range(rng.integers(25, 45)):  # normal nuclei, anywhere
        x, y = rng.uniform(0, 1, 2)
        canvas.ellipse(x, y, *pair(rng, 0.012, 0.025), jitter(rng, (120, 70, 150), 20))
    if tumour:
        cx, cy = rng.uniform(0.42, 0.58, 2)
        for _ in range(rng.integers(14, 22)):
            x, y = cx + rng.normal(0, 0.07), cy + rng.normal(0, 0.07)
            canvas.ellipse(x, y, *pair(rng, 0.035, 0.06), jitter(rng, (60, 25, 90), 15))
    elif rng.random() < 0.3:  # a tumour cluster off centre does not count
        cx, cy = rng.choice([0.12, 0.88], 2)
        for _ in range(rng.integers(6, 12)):
            x, y = cx + rng.normal(0, 0.05), cy + rng.normal(0, 0.05)
            canvas.ellipse(x, y, *pair(rng, 0.03, 0.05), jitter(rng, (70, 30, 100), 15))
    return canvas.finish(rng, noise=7, blur=0.4)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    is_test = np.zeros(n, bool)
    is_test[rng.choice(n, size.n_test, replace=False)] = True
    labels = (rng.random(n) < 0.4).astype(np.int64)
    for part in (is_test, ~is_test):  # both classes in each file, however small
        labels[part] = at_least(labels[part], 2, rng)
    frame = pd.DataFrame({"id": hex_ids(rng, n, 40), "label": labels})
    train, test = frame[~is_test], frame[is_test]
    for folder, rows in (("train", train), ("test", test)):
        for image_id, label in zip(rows["id"], rows["label"], strict=True):
            save(draw(rng, size.side, bool(label)), public / folder / f"{image_id}.tif")
    train.to_csv(public / "train_labels.csv", index=False)
    test.to_csv(private / "answers.csv", index=False)
    test.assign(label=0).to_csv(public / "sample_submission.csv", index=False)
