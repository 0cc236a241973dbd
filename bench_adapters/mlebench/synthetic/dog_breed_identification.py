"""dog-breed-identification: photographs of dogs of 120 breeds; each breed is one combination
of coat hue (12), head shape (5) and backdrop (light or dark), drawn with jitter, so the breed
is learnable and neighbouring breeds are easy to confuse.

Public: ``labels.csv`` (``id,breed``), ``train/<id>.jpg``, ``test/<id>.jpg``,
``sample_submission.csv`` (``id`` + the 120 breeds, each 1/120). Private: ``test.csv``, the
test breeds one-hot (``id`` + the 120 breeds as 0/1, in the breed-list order). Ids are 32 hex
digits; rows are in the shuffled order of upstream's split.
"""

from __future__ import annotations

import colorsys
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from ..graders.dog_breed_identification import BREEDS
from .common import Size, hex_ids, split
from .imaging import Canvas, blob, jitter, pair, save

SHAPES = ("round", "square", "triangle", "diamond", "long")


def look(breed: int) -> tuple[tuple[int, int, int], str, bool]:
    """(coat colour, head shape, dark backdrop) of breed number ``breed`` (0-119)."""
    hue, shape, dark = breed % 12, (breed // 12) % 5, breed // 60 == 1
    r, g, b = colorsys.hsv_to_rgb(hue / 12, 0.75, 0.85)
    return (int(255 * r), int(255 * g), int(255 * b)), SHAPES[shape], dark


def draw(rng: np.random.Generator, side: int, breed: int) -> Image.Image:
    coat, shape, dark = look(breed)
    canvas = Canvas(side, side, jitter(rng, (40, 40, 50) if dark else (215, 215, 200), 25))
    cx, cy, r = *pair(rng, 0.38, 0.62), rng.uniform(0.22, 0.32)
    colour = jitter(rng, coat, 12)
    if shape == "round":
        canvas.polygon(blob(rng, cx, cy, r, 0.05), colour)
    elif shape == "square":
        canvas.rectangle(cx - r, cy - r, cx + r, cy + r, colour)
    elif shape == "triangle":
        canvas.polygon([(cx, cy - r), (cx + r, cy + r), (cx - r, cy + r)], colour)
    elif shape == "diamond":
        canvas.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], colour)
    else:
        canvas.rectangle(cx - 1.3 * r, cy - 0.45 * r, cx + 1.3 * r, cy + 0.45 * r, colour)
    canvas.ellipse(cx - 0.3 * r, cy - 0.1 * r, 0.08 * r, 0.08 * r, (20, 20, 20))  # eyes
    canvas.ellipse(cx + 0.3 * r, cy - 0.1 * r, 0.08 * r, 0.08 * r, (20, 20, 20))
    return canvas.finish(rng, noise=8, blur=0.5)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    breeds = rng.integers(0, len(BREEDS), n)
    breeds[: len(BREEDS)] = rng.permutation(len(BREEDS))[: min(n, len(BREEDS))]
    frame = pd.DataFrame({"id": hex_ids(rng, n, 32), "breed": np.array(BREEDS)[breeds]})
    train_rows, test_rows = split(rng, n, size.n_test)
    train, test = frame.iloc[train_rows], frame.iloc[test_rows]
    for folder, rows, numbers in (
        ("train", train, breeds[train_rows]),
        ("test", test, breeds[test_rows]),
    ):
        for image_id, breed in zip(rows["id"], numbers, strict=True):
            save(draw(rng, size.side, int(breed)), public / folder / f"{image_id}.jpg")
    train.to_csv(public / "labels.csv", index=False)
    one_hot = pd.DataFrame(0, index=test.index, columns=["id", *BREEDS])
    one_hot["id"] = test["id"]
    for row, breed in zip(test.index, test["breed"], strict=True):
        one_hot.loc[row, breed] = 1
    one_hot.to_csv(private / "test.csv", index=False)
    sample = one_hot.astype({b: "float64" for b in BREEDS})
    sample[BREEDS] = 1 / len(BREEDS)
    sample.to_csv(public / "sample_submission.csv", index=False)
