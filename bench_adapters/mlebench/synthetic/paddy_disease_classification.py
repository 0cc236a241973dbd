"""paddy-disease-classification: portrait photographs (3:4) of rice leaves, healthy or with one
of nine diseases in Kaggle's shares. Leaves are green blades over a field; each disease gives
the blades its own cast and leaves its own marks (blast: grey diamonds with a brown rim, brown
spot: small brown dots, tungro: a yellow-orange cast, hispa: pale scrapes, leaf blight: yellow
edges, leaf streak: thin yellow stripes, downy mildew: pale blotches, dead heart: a brown
withered centre, panicle blight: discoloured grains), so the label is learnable from colour
and shape.

Public: ``train.csv`` (``image_id,label,variety,age``), ``train_images/<label>/<image_id>``,
``test_images/<image_id>``, ``sample_submission.csv`` (``image_id,label`` with every label
blank, in test order). Private: ``test.csv`` (the four columns). Ids are 6-digit numbers with
``.jpg``; rows are in the shuffled order of upstream's 75/25 split.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size, split
from .imaging import Canvas, jitter, save

LABELS = {  # label -> share of Kaggle's training images
    "normal": 0.170,
    "blast": 0.167,
    "hispa": 0.153,
    "dead_heart": 0.139,
    "tungro": 0.105,
    "brown_spot": 0.093,
    "downy_mildew": 0.060,
    "bacterial_leaf_blight": 0.046,
    "bacterial_leaf_streak": 0.036,
    "bacterial_panicle_blight": 0.031,
}
VARIETIES = {
    "ADT45": 0.672,
    "KarnatakaPonni": 0.095,
    "Ponni": 0.063,
    "AtchayaPonni": 0.044,
    "Zonal": 0.038,
    "AndraPonni": 0.036,
    "Onthanel": 0.034,
    "IR20": 0.011,
    "RR": 0.004,
    "Surya": 0.003,
}
AGES = [45, 47, 50, 55, 57, 60, 62, 65, 66, 67, 68, 70, 72, 73, 75, 77, 80, 82]
LEAF = {  # the blades' colour: each disease also discolours the whole leaf a little
    "normal": (60, 150, 55),
    "blast": (95, 125, 80),
    "hispa": (120, 165, 95),
    "dead_heart": (95, 130, 50),
    "tungro": (190, 170, 60),
    "brown_spot": (110, 125, 50),
    "downy_mildew": (135, 170, 120),
    "bacterial_leaf_blight": (150, 160, 60),
    "bacterial_leaf_streak": (120, 150, 55),
    "bacterial_panicle_blight": (130, 120, 70),
}


def _spots(
    canvas: Canvas, rng: np.random.Generator, count: int, radius: float, colour: tuple[int, ...]
) -> None:
    for _ in range(count):
        x, y = rng.uniform(0.1, 0.9), rng.uniform(0.05, 0.95)
        canvas.ellipse(x, y, radius * rng.uniform(0.7, 1.3), radius * 2, jitter(rng, colour, 12))


def draw(rng: np.random.Generator, side: int, label: str) -> Image.Image:
    tint = (150, 150, 60) if label == "tungro" else (95, 110, 70)
    canvas = Canvas(side * 3 // 4, side, jitter(rng, tint, 15))
    leaf = LEAF[label]
    for _ in range(int(rng.integers(3, 6))):
        x = rng.uniform(0.1, 0.9)
        canvas.line([(x, 1.0), (x + rng.uniform(-0.2, 0.2), 0.0)], jitter(rng, leaf, 15), 0.08)
    if label == "blast":
        for _ in range(int(rng.integers(3, 7))):
            x, y = rng.uniform(0.15, 0.85), rng.uniform(0.1, 0.9)
            outline = [(x, y - 0.06), (x + 0.03, y), (x, y + 0.06), (x - 0.03, y)]
            canvas.polygon(outline, jitter(rng, (120, 70, 40), 10))
            canvas.ellipse(x, y, 0.012, 0.03, jitter(rng, (170, 170, 160), 10))
    elif label == "brown_spot":
        _spots(canvas, rng, int(rng.integers(8, 16)), 0.015, (110, 60, 30))
    elif label == "hispa":
        for _ in range(int(rng.integers(4, 9))):
            x, y = rng.uniform(0.1, 0.9), rng.uniform(0.1, 0.9)
            canvas.line([(x, y), (x, y + 0.1)], jitter(rng, (225, 225, 205), 10), 0.02)
    elif label == "bacterial_leaf_blight":
        for edge in (0.05, 0.95):
            canvas.line([(edge, 0.0), (edge, 1.0)], jitter(rng, (220, 200, 90), 10), 0.08)
    elif label == "bacterial_leaf_streak":
        for _ in range(int(rng.integers(4, 8))):
            x = rng.uniform(0.1, 0.9)
            canvas.line([(x, 0.2), (x, 0.8)], jitter(rng, (200, 190, 70), 10), 0.012)
    elif label == "downy_mildew":
        _spots(canvas, rng, int(rng.integers(3, 6)), 0.06, (190, 200, 170))
    elif label == "dead_heart":
        canvas.line([(0.5, 1.0), (0.5, 0.1)], jitter(rng, (120, 85, 45), 10), 0.12)
    elif label == "bacterial_panicle_blight":
        _spots(canvas, rng, int(rng.integers(10, 18)), 0.02, (150, 110, 60))
    return canvas.finish(rng, noise=6, blur=0.8)


def _weighted(rng: np.random.Generator, table: dict[str, float], n: int) -> np.ndarray:
    shares = np.array(list(table.values()))
    return rng.choice(list(table), n, p=shares / shares.sum())


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    labels = _weighted(rng, LABELS, n)
    labels[: min(n, len(LABELS))] = list(LABELS)[
        : min(n, len(LABELS))
    ]  # every label, however small
    numbers = rng.choice(np.arange(100_000, 200_000), n, replace=False)
    frame = pd.DataFrame(
        {
            "image_id": [f"{k}.jpg" for k in numbers],
            "label": labels,
            "variety": _weighted(rng, VARIETIES, n),
            "age": rng.choice(AGES, n),
        }
    )
    train_rows, test_rows = split(rng, n, size.n_test)
    train, test = frame.iloc[train_rows], frame.iloc[test_rows]
    train.to_csv(public / "train.csv", index=False)
    test[["image_id"]].assign(label="").to_csv(public / "sample_submission.csv", index=False)
    test.to_csv(private / "test.csv", index=False)
    for row in train.itertuples():
        save(draw(rng, size.side, row.label), public / "train_images" / row.label / row.image_id)
    for row in test.itertuples():
        save(draw(rng, size.side, row.label), public / "test_images" / row.image_id)
