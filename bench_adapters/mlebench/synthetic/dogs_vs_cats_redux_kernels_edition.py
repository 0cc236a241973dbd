"""dogs-vs-cats-redux-kernels-edition: photographs of one cat or one dog; a cat's head has
pointed ears, a dog's hangs long, floppy ears beside it; cats' coats lean grey, black, white
and ginger, dogs' brown, golden and tan. Sizes and backdrops vary alike for both. Half the
images are dogs.

Public: ``train/cat.<k>.jpg`` and ``train/dog.<k>.jpg`` (numbered per animal), their archive
``train.zip``, ``test/<i>.jpg`` for ``i`` = 1..N and ``test.zip`` (members at the archive
root), ``sample_submission.csv`` (``id,label`` = 0.5). Private: ``answers.csv``
(``id,label``, 1 for a dog).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size, both_classes, zip_folder
from .imaging import Canvas, jitter, pair, save

CAT_COATS = ((150, 150, 155), (40, 40, 45), (235, 235, 230), (220, 110, 30))
DOG_COATS = ((130, 85, 45), (215, 170, 95), (175, 130, 80), (70, 50, 35))
"""Coats lean apart, as cats' and dogs' do: grey, black, white and ginger cats; brown, golden,
tan and dark-brown dogs."""


def draw(rng: np.random.Generator, side: int, dog: bool) -> Image.Image:
    canvas = Canvas(side, side, jitter(rng, tuple(rng.uniform(60, 220, 3)), 20))
    for _ in range(rng.integers(0, 3)):  # furniture, grass, toys
        x, y = rng.uniform(0, 1, 2)
        canvas.rectangle(
            x,
            y,
            x + rng.uniform(0.1, 0.4),
            y + rng.uniform(0.1, 0.3),
            jitter(rng, tuple(rng.uniform(40, 230, 3)), 10),
        )
    coats = DOG_COATS if dog else CAT_COATS
    coat = jitter(rng, coats[rng.integers(len(coats))], 15)
    cx, cy, r = *pair(rng, 0.38, 0.62), rng.uniform(0.16, 0.24)
    if dog:
        for dx in (-1, 1):
            canvas.ellipse(
                cx + dx * 0.95 * r, cy + 0.45 * r, 0.3 * r, 0.75 * r, jitter(rng, coat, 25)
            )
    else:
        for dx in (-1, 1):
            canvas.polygon(
                [
                    (cx + dx * 0.85 * r, cy - 0.2 * r),
                    (cx + dx * 0.75 * r, cy - 1.45 * r),
                    (cx + dx * 0.2 * r, cy - 0.75 * r),
                ],
                coat,
            )
    canvas.ellipse(cx, cy, r, 0.9 * r, coat)
    for eye in (-0.35, 0.35):
        canvas.ellipse(cx + eye * r, cy - 0.15 * r, 0.1 * r, 0.1 * r, (15, 15, 15))
    return canvas.finish(rng, noise=8, blur=0.5)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    train_dogs = both_classes(rng.random(size.n_train) < 0.5)
    counters = {"cat": 0, "dog": 0}
    for dog in train_dogs:
        animal = "dog" if dog else "cat"
        save(draw(rng, size.side, bool(dog)), public / "train" / f"{animal}.{counters[animal]}.jpg")
        counters[animal] += 1
    test_dogs = both_classes(rng.random(size.n_test) < 0.5)
    for i, dog in enumerate(test_dogs, start=1):
        save(draw(rng, size.side, bool(dog)), public / "test" / f"{i}.jpg")
    zip_folder(public / "train", public / "train.zip")
    zip_folder(public / "test", public / "test.zip")
    ids = np.arange(1, size.n_test + 1)
    pd.DataFrame({"id": ids, "label": test_dogs}).to_csv(private / "answers.csv", index=False)
    pd.DataFrame({"id": ids, "label": 0.5}).to_csv(public / "sample_submission.csv", index=False)
