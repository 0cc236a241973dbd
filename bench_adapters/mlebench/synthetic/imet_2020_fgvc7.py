"""imet-2020-fgvc7: photographs of museum objects, each with 1-5 attributes out of the Met's
ontology of 3,474 (``country::``, ``culture::``, ``dimension::``, ``medium::``, ``tags::``).
The 36 attributes that appear are each drawn as one mark, a shape (3) in a colour (12), so the
attribute set is what the picture shows; popular attributes come first, as on Kaggle.

Public: ``train.csv`` (``id,attribute_ids``, ids space-separated), ``labels.csv``
(``attribute_id,attribute_name``), ``train/<id>.png``, ``test/<id>.png``,
``sample_submission.csv`` (``id,attribute_ids`` = ``0 1 2``). Private: ``answers.csv``
(``id,attribute_ids``). Ids are 32 hex digits; rows are in the shuffled order of upstream's
split (15% test). There is no public test table: the test images and the sample are all.
"""

from __future__ import annotations

import colorsys
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size, hex_ids, split
from .imaging import Canvas, jitter, save

GROUPS = {"country": 100, "culture": 681, "dimension": 5, "medium": 1920, "tags": 768}
"""Attributes per group, in ``attribute_id`` order (3,474 in all)."""
SHAPES = ("disc", "square", "bar")
SHOWN = 36
"""Attributes that appear in the data: 12 colours x 3 shapes."""
COUNT_SHARES = [0.3, 0.35, 0.2, 0.1, 0.05]
"""Share of objects with 1-5 attributes."""


def labels_table() -> pd.DataFrame:
    names = [f"{group}::{group}_{k}" for group, n in GROUPS.items() for k in range(n)]
    return pd.DataFrame({"attribute_id": range(len(names)), "attribute_name": names})


def shown_ids(rng: np.random.Generator) -> np.ndarray:
    """The attribute ids that appear, most popular first."""
    return rng.choice(sum(GROUPS.values()), SHOWN, replace=False)


def draw(rng: np.random.Generator, side: int, marks: list[int]) -> Image.Image:
    canvas = Canvas(side, side, jitter(rng, (200, 195, 185), 25))
    for mark in marks:
        r, g, b = colorsys.hsv_to_rgb((mark % 12) / 12, 0.8, 0.85)
        colour = jitter(rng, (255 * r, 255 * g, 255 * b), 10)
        x, y = rng.uniform(0.2, 0.8, 2)
        size = rng.uniform(0.1, 0.16)
        shape = SHAPES[mark // 12]
        if shape == "disc":
            canvas.ellipse(x, y, size, size, colour)
        elif shape == "square":
            canvas.rectangle(x - size, y - size, x + size, y + size, colour)
        else:
            canvas.rectangle(
                x - 1.8 * size, y - 0.35 * size, x + 1.8 * size, y + 0.35 * size, colour
            )
    return canvas.finish(rng, noise=6, blur=0.3)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    attribute_ids = shown_ids(rng)
    popularity = 1 / np.arange(1, SHOWN + 1) ** 0.7
    popularity /= popularity.sum()
    train_rows, test_rows = split(rng, n, size.n_test)
    counts = rng.choice(len(COUNT_SHARES), n, p=COUNT_SHARES) + 1
    counts[[train_rows[0], test_rows[0]]] = 3  # a column of single ids would read as numbers
    marks = [
        [int(m) for m in dict.fromkeys(rng.choice(SHOWN, 6, p=popularity).tolist())][:c]
        for c in counts
    ]
    frame = pd.DataFrame(
        {
            "id": hex_ids(rng, n, 32),
            "attribute_ids": [" ".join(str(attribute_ids[m]) for m in row) for row in marks],
        }
    )
    for folder, rows in (("train", train_rows), ("test", test_rows)):
        for row in rows:
            image = draw(rng, size.side, marks[row])
            save(image, public / folder / f"{frame['id'].iat[row]}.png")
    frame.iloc[train_rows].to_csv(public / "train.csv", index=False)
    answers = frame.iloc[test_rows]
    answers.to_csv(private / "answers.csv", index=False)
    answers.assign(attribute_ids="0 1 2").to_csv(public / "sample_submission.csv", index=False)
    labels_table().to_csv(public / "labels.csv", index=False)
