"""leaf-classification: 99 species of leaf, each as three 64-bin feature vectors (margin,
shape, texture) and a binary silhouette image. Each species has its own prototype vectors and
outline (elongation, lobes); a leaf is its species' prototype with noise, so the features
(mostly) and the images (a little) tell species apart.

Public: ``train.csv`` (``id,species,margin1..64,shape1..64,texture1..64``), ``test.csv``
(the same without ``species``), ``images/<id>.jpg`` for every train and test leaf,
``sample_submission.csv`` (``id`` + the 99 species, each 1/99). Private: ``test.csv``, the
test species one-hot (``id`` + 99 columns of 0/1, in the species-list order). Ids are
integers from Kaggle's range 1..1584; rows are in the shuffled order of upstream's split.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from PIL import Image

from ..graders.leaf_classification import SPECIES
from .common import Size, split
from .imaging import save

BINS = 64
MAX_ID = 1584


def prototypes(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Per species: margin and texture histograms, a smooth shape profile, an outline."""
    k = len(SPECIES)
    angles = np.linspace(0, 2 * np.pi, BINS, endpoint=False)
    lobes = rng.integers(0, 7, k)
    depth = rng.uniform(0.0, 0.35, k)
    elongation = rng.uniform(1.0, 3.0, k)
    shape = 1 + depth[:, None] * np.cos(lobes[:, None] * angles[None, :])
    shape = shape * (1 + (elongation[:, None] - 1) * np.abs(np.cos(angles))[None, :])
    return {
        "margin": rng.dirichlet(np.ones(BINS) * 0.6, k),
        "texture": rng.dirichlet(np.ones(BINS) * 0.4, k),
        "shape": shape,
        "lobes": lobes,
        "depth": depth,
        "elongation": elongation,
    }


def features(
    rng: np.random.Generator, proto: dict[str, np.ndarray], species: np.ndarray
) -> dict[str, Any]:
    n = len(species)
    margin = np.stack([rng.dirichlet(40 * proto["margin"][s] + 0.05) for s in species])
    texture = np.stack([rng.dirichlet(40 * proto["texture"][s] + 0.05) for s in species])
    scale = rng.uniform(0.4, 1.0, n)[:, None] * 1e-3
    shape = proto["shape"][species] * scale * (1 + rng.normal(0, 0.04, (n, BINS)))
    columns: dict[str, np.ndarray] = {}
    for name, values, step in (
        ("margin", margin, 128),
        ("shape", shape, 0),
        ("texture", texture, 1024),
    ):
        quantised = np.round(values * step) / step if step else values
        for b in range(BINS):
            columns[f"{name}{b + 1}"] = np.round(quantised[:, b], 6)
    return columns


def silhouette(
    rng: np.random.Generator, proto: dict[str, np.ndarray], s: int, side: int
) -> Image.Image:
    """White leaf on black, as Kaggle's binary images: the species' outline, jittered."""
    t = np.linspace(0, 2 * np.pi, 200)
    radius = 1 + proto["depth"][s] * np.cos(proto["lobes"][s] * t) + rng.normal(0, 0.01, 200)
    long_axis = proto["elongation"][s]
    width = side if long_axis < 1.5 else max(8, round(side / long_axis * 1.5))
    height = round(side * rng.uniform(0.6, 0.8)) if long_axis < 1.5 else side
    x = 0.5 + 0.3 * radius * np.cos(t) / max(1.0, long_axis / 1.5)
    y = 0.5 + 0.33 * radius * np.sin(t)
    from PIL import ImageDraw

    image = Image.new("L", (width, height), 0)
    ImageDraw.Draw(image).polygon(list(zip(x * width, y * height, strict=True)), fill=255)
    return image


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    proto = prototypes(rng)
    species = np.resize(rng.permutation(len(SPECIES)), n)  # every species, about evenly
    rng.shuffle(species)
    ids = np.sort(rng.choice(np.arange(1, max(MAX_ID, n) + 1), n, replace=False))
    frame = pd.DataFrame(
        {"id": ids, "species": np.array(SPECIES)[species], **features(rng, proto, species)}
    )
    for image_id, s in zip(ids, species, strict=True):
        save(silhouette(rng, proto, int(s), size.side), public / "images" / f"{image_id}.jpg")
    train_rows, test_rows = split(rng, n, size.n_test)
    train, test = frame.iloc[train_rows], frame.iloc[test_rows]
    one_hot = pd.DataFrame(0, index=test.index, columns=["id", *SPECIES])
    one_hot["id"] = test["id"]
    for row, name in zip(test.index, test["species"], strict=True):
        one_hot.loc[row, name] = 1
    train.to_csv(public / "train.csv", index=False)
    one_hot.to_csv(private / "test.csv", index=False)
    test.drop(columns="species").to_csv(public / "test.csv", index=False)
    sample = one_hot.astype({s: "float64" for s in SPECIES})
    sample[SPECIES] = 1 / len(SPECIES)
    sample.to_csv(public / "sample_submission.csv", index=False)
