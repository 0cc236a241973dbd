"""plant-seedlings-classification: top-down photographs of seedlings of 12 species on gravelly
soil, in Kaggle's shares. A species is one combination of leaf shape (round, long, narrow
blades, lobed), leaf count and green hue, drawn with jitter, so it is learnable.

Public: ``train/<species>/<file>`` and ``test/<file>`` (PNG), ``sample_submission.csv``
(``file,species`` with every species ``Sugar beet``, in test order). Private: ``answers.csv``
(``file,species``). Files are 9 hex digits with ``.png``; rows are in the shuffled order of
upstream's split. There is no train CSV: the folders are the labels.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size, hex_ids, split
from .imaging import Canvas, blob, jitter, save

SPECIES = {  # species -> (share of Kaggle's images, leaf shape, leaves, green)
    "Black-grass": (0.055, "blade", 3, (60, 110, 50)),
    "Charlock": (0.082, "round", 4, (90, 150, 60)),
    "Cleavers": (0.060, "narrow", 6, (80, 140, 70)),
    "Common Chickweed": (0.129, "round", 6, (110, 170, 70)),
    "Common wheat": (0.047, "blade", 2, (120, 160, 80)),
    "Fat Hen": (0.100, "lobed", 4, (90, 130, 90)),
    "Loose Silky-bent": (0.138, "blade", 5, (70, 140, 60)),
    "Maize": (0.047, "blade", 2, (60, 150, 40)),
    "Scentless Mayweed": (0.109, "narrow", 9, (70, 120, 50)),
    "Shepherds Purse": (0.048, "lobed", 6, (100, 150, 60)),
    "Small-flowered Cranesbill": (0.104, "lobed", 3, (60, 130, 60)),
    "Sugar beet": (0.081, "round", 2, (70, 120, 60)),
}
SOIL = (120, 100, 80)


def draw(rng: np.random.Generator, side: int, species: str) -> Image.Image:
    _, shape, leaves, green = SPECIES[species]
    canvas = Canvas(side, side, jitter(rng, SOIL, 15))
    for _ in range(int(rng.integers(5, 12))):  # gravel
        x, y = rng.uniform(0, 1, 2)
        canvas.ellipse(x, y, 0.02, 0.02, jitter(rng, (160, 150, 140), 25))
    cx, cy = rng.uniform(0.4, 0.6, 2)
    for k in range(leaves):
        angle = 2 * np.pi * k / leaves + rng.uniform(-0.3, 0.3)
        reach = rng.uniform(0.2, 0.35)
        tip = (cx + reach * np.cos(angle), cy + reach * np.sin(angle))
        colour = jitter(rng, green, 12)
        if shape == "blade":
            canvas.line([(cx, cy), tip], colour, 0.03)
        elif shape == "narrow":
            canvas.line([(cx, cy), tip], colour, 0.015)
        elif shape == "round":
            mid = ((cx + tip[0]) / 2, (cy + tip[1]) / 2)
            canvas.polygon(blob(rng, *mid, reach / 2, 0.05), colour)
        else:  # lobed
            mid = ((cx + tip[0]) / 2, (cy + tip[1]) / 2)
            canvas.polygon(blob(rng, *mid, reach / 2, 0.45, n=10), colour)
    return canvas.finish(rng, noise=5, blur=0.6)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    names = list(SPECIES)
    shares = np.array([SPECIES[s][0] for s in names])
    species = rng.choice(names, n, p=shares / shares.sum())
    species[: min(n, len(names))] = names[: min(n, len(names))]  # every species, however small
    frame = pd.DataFrame({"file": [f"{h}.png" for h in hex_ids(rng, n, 9)], "species": species})
    train_rows, test_rows = split(rng, n, size.n_test)
    train, test = frame.iloc[train_rows], frame.iloc[test_rows]
    test.to_csv(private / "answers.csv", index=False)
    test.assign(species="Sugar beet").to_csv(public / "sample_submission.csv", index=False)
    for row in train.itertuples():
        save(draw(rng, size.side, row.species), public / "train" / row.species / row.file)
    for row in test.itertuples():
        save(draw(rng, size.side, row.species), public / "test" / row.file)
