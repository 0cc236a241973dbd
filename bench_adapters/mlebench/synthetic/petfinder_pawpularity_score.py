"""petfinder-pawpularity-score: pet photographs with twelve 0/1 photo-quality flags and a
``Pawpularity`` of 1 to 100 (mean about 38, as on Kaggle). A clear face, eyes and a pet that
fills the frame raise it, blur and occlusion lower it; the pet is drawn larger and sharper
the more popular it is: the signal, in the flags and in the pixels.

Public: ``train.csv`` (``Id``, the flags, ``Pawpularity``), ``test.csv`` (``Id`` and the
flags), ``sample_submission.csv`` (``Id,Pawpularity``, random values 1 to 100 with two
decimals, as upstream draws them), ``train/<Id>.jpg`` and ``test/<Id>.jpg``. Private:
``test.csv`` (the test rows with ``Pawpularity``). Ids are 32 hex digits; a random tenth of
the photographs is the test set, as upstream's split. Photographs are square (32 pixels in
the small fixture, 256 at full size; Kaggle's are about 960 by 720).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size, hex_ids, split
from .imaging import Canvas, jitter, pair, save

FLAGS = [
    "Subject Focus", "Eyes", "Face", "Near", "Action", "Accessory", "Group", "Collage",
    "Human", "Occlusion", "Info", "Blur",
]  # fmt: skip
FLAG_SHARES = [0.03, 0.77, 0.90, 0.86, 0.01, 0.07, 0.13, 0.05, 0.17, 0.17, 0.06, 0.07]
COATS = [(200, 160, 110), (60, 50, 45), (235, 230, 220), (150, 110, 70)]


def draw(rng: np.random.Generator, side: int, appeal: float, blur: bool) -> Image.Image:
    """A pet (body, head, eyes) over a room; ``appeal`` in [0, 1] sets its size."""
    canvas = Canvas(side, side, jitter(rng, (120, 130, 140), 60))
    coat = jitter(rng, COATS[rng.integers(len(COATS))], 20)
    scale = 0.15 + 0.3 * appeal
    cx, cy = rng.uniform(0.35, 0.65, 2)
    canvas.ellipse(cx, cy + scale * 0.6, scale, scale * 0.7, coat)
    canvas.ellipse(cx, cy, scale * 0.6, scale * 0.55, coat)
    for dx in (-0.2, 0.2):
        canvas.ellipse(cx + dx * scale, cy - 0.1 * scale, *pair(rng, 0.02, 0.03), (20, 20, 20))
    return canvas.finish(rng, noise=6, blur=3.0 if blur else 0.4)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    flags = (rng.random((n, len(FLAGS))) < FLAG_SHARES).astype(np.int64)
    f = dict(zip(FLAGS, flags.T, strict=True))
    appeal = np.clip(rng.beta(2, 2.5, n) + 0.1 * f["Face"] - 0.15 * f["Occlusion"], 0, 1)
    score = 8 + 60 * appeal + 6 * f["Eyes"] - 8 * f["Blur"] + rng.normal(0, 6, n)
    frame = pd.DataFrame(flags, columns=FLAGS)
    frame.insert(0, "Id", hex_ids(rng, n, 32))
    frame["Pawpularity"] = np.clip(np.rint(score), 1, 100).astype(np.int64)
    train_rows, test_rows = split(rng, n, size.n_test)
    for folder, rows in (("train", train_rows), ("test", test_rows)):
        for row in rows:
            image = draw(rng, size.side, float(appeal[row]), bool(f["Blur"][row]))
            save(image, public / folder / f"{frame['Id'].iloc[row]}.jpg")
    train, test = frame.iloc[train_rows], frame.iloc[test_rows]
    train.to_csv(public / "train.csv", index=False)
    test.to_csv(private / "test.csv", index=False)
    test.drop(columns=["Pawpularity"]).to_csv(public / "test.csv", index=False)
    sample = test[["Id"]].assign(Pawpularity=rng.uniform(1, 100, len(test)).round(2))
    sample.to_csv(public / "sample_submission.csv", index=False)
