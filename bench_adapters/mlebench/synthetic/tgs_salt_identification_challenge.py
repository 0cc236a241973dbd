"""tgs-salt-identification-challenge: 101 x 101 seismic images with salt bodies, as upstream's
75/25 split of Kaggle's 4,000 training images.

Sediment shows as layered reflections (horizontal stripes that bend and fade); salt is
amorphous: a smooth, brighter area with little texture. About 38% of the images have no salt,
a few are all salt; the rest hold a salt body rising from the bottom under a wavy top, or a
dome. Deeper images (``z``, in feet) hold more salt.

Public: ``train.csv`` (``id, rle_mask``, blank for no salt, sorted by id), ``depths.csv``
(``id, z`` of the training images only, as upstream's), ``train/images/<id>.png`` and
``train/masks/<id>.png`` (greyscale; masks 0 or 255), ``test/images/<id>.png`` and
``sample_submission.csv`` (``id, rle_mask`` = ``1 1``, sorted). Private: ``test.csv``
(``id, rle_mask``, sorted). Masks are encoded down each column, then across (``rlecodec``);
ids are 10 hex digits. The images are Kaggle's size at both sizes (the grader assumes it).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from rlecodec import encode

from .common import Size, hex_ids

SIDE = 101


def check_size(size: Size) -> None:
    if size.side != SIDE:
        raise ValueError(f"images are {SIDE} pixels a side (the grader's), got {size.side}")


def salt_mask(rng: np.random.Generator, depth: float) -> np.ndarray:
    """A salt body for an image at ``depth`` (0 shallow to 1 deep)."""
    yy, xx = np.mgrid[0:SIDE, 0:SIDE] / SIDE
    kind = rng.random()
    if kind < 0.45 - 0.2 * depth:
        return np.zeros((SIDE, SIDE), dtype=bool)
    if kind > 0.97 - 0.05 * depth:
        return np.ones((SIDE, SIDE), dtype=bool)
    if rng.random() < 0.6:  # a body rising from the bottom under a wavy top
        level = rng.uniform(0.25, 0.9) - 0.2 * depth
        top = level + 0.08 * np.sin(rng.uniform(2, 9) * xx + rng.uniform(0, 6))
        return yy > top + rng.uniform(-0.2, 0.2) * xx
    cx, cy = rng.uniform(0.2, 0.8, 2)
    rx, ry = rng.uniform(0.15, 0.45, 2)
    return ((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2 < 1


def seismic(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """Layered reflections over sediment, a smooth bright area over salt, as 8-bit grey."""
    yy, xx = np.mgrid[0:SIDE, 0:SIDE] / SIDE
    bend = 0.05 * np.sin(rng.uniform(1, 4) * xx + rng.uniform(0, 6))
    layers = np.sin((yy + bend) * rng.uniform(40, 70) + rng.uniform(0, 6))
    sediment = 110 + 45 * layers * rng.uniform(0.6, 1.0)
    salt = 150 + 10 * np.sin(xx * 3 + yy * 2)
    pixels = np.where(mask, salt, sediment) + rng.normal(0, 8, mask.shape)
    return np.clip(pixels, 0, 255).astype(np.uint8)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    ids = hex_ids(rng, n, 10)
    depth = rng.uniform(0, 1, n)
    masks = [salt_mask(rng, d) for d in depth]
    frame = pd.DataFrame({"id": ids, "rle_mask": [encode(m) for m in masks]})
    test_rows = rng.permutation(n)[: size.n_test]
    is_test = np.zeros(n, dtype=bool)
    is_test[test_rows] = True
    for folder in ("train/images", "train/masks", "test/images"):
        (public / folder).mkdir(parents=True)
    for k, (image_id, mask) in enumerate(zip(ids, masks, strict=True)):
        split = "test" if is_test[k] else "train"
        Image.fromarray(seismic(rng, mask)).save(public / split / "images" / f"{image_id}.png")
        if not is_test[k]:
            Image.fromarray(mask.astype(np.uint8) * 255).save(
                public / "train" / "masks" / f"{image_id}.png"
            )
    train = frame[~is_test].sort_values("id")
    test = frame[is_test].sort_values("id")
    train.to_csv(public / "train.csv", index=False)
    test.to_csv(private / "test.csv", index=False)
    test.assign(rle_mask="1 1").to_csv(public / "sample_submission.csv", index=False)
    z = np.round(50 + 900 * depth + rng.normal(0, 40, n)).clip(50, 959).astype(np.int64)
    depths = pd.DataFrame({"id": ids, "z": z})[~is_test].sort_values("id")
    depths.to_csv(public / "depths.csv", index=False)
