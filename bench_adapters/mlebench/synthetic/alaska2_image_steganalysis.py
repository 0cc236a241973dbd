"""alaska2-image-steganalysis: JPEG photographs (square, as Kaggle's 512x512), each a cover
image or the same image with a hidden message. A message is a faint, high-frequency pattern
added to about half of the 8x8 blocks before JPEG compression: a checkerboard (JMiPOD),
horizontal (JUNIWARD) or vertical (UERD) stripes of period 2, a few grey levels deep, which
a model finds in the high-pass residual.

Public: ``Cover/<5 digits>.jpg`` (training covers, numbered from 00001) and the same names
under ``JMiPOD/``, ``JUNIWARD/`` and ``UERD/`` (each cover with a message embedded by that
algorithm); ``Test/<4 digits>.jpg`` (numbered from 0001, each a cover or, with even odds, a
stego image of a random algorithm); ``sample_submission.csv`` (``Id,Label`` = 0). Private:
``test.csv`` (``Id,Label``, 1 for a hidden message) in ``Id`` order. Payload cap: ``side``
pixels square (Kaggle: 512).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size
from .imaging import Canvas, blob, jitter

ALGORITHMS = ["JMiPOD", "JUNIWARD", "UERD"]
DEPTH = 3.0
"""Amplitude of the embedded pattern, in grey levels."""
QUALITIES = [75, 90, 95]


def cover(rng: np.random.Generator, side: int) -> np.ndarray:
    """A photograph-like scene: a sky and ground, a few blobs, blur and sensor noise."""
    canvas = Canvas(side, side, jitter(rng, (120, 150, 190), 40))
    canvas.rectangle(0, rng.uniform(0.4, 0.7), 1, 1, jitter(rng, (100, 110, 70), 40))
    for _ in range(rng.integers(2, 6)):
        x, y = rng.uniform(0.1, 0.9, 2)
        canvas.polygon(
            blob(rng, x, y, rng.uniform(0.05, 0.25), 0.3), jitter(rng, (128, 110, 100), 90)
        )
    image = canvas.finish(rng, noise=2.0, blur=1.5)
    return np.asarray(image, np.float32)


def pattern(algorithm: str, side: int) -> np.ndarray:
    y, x = np.mgrid[0:side, 0:side]
    if algorithm == "JMiPOD":
        return ((x + y) % 2 * 2 - 1).astype(np.float32)
    if algorithm == "JUNIWARD":
        return (y % 2 * 2 - 1).astype(np.float32)
    return (x % 2 * 2 - 1).astype(np.float32)


def embed(rng: np.random.Generator, pixels: np.ndarray, algorithm: str) -> np.ndarray:
    side = pixels.shape[0]
    blocks = -(-side // 8)
    used = np.kron(rng.random((blocks, blocks)) < 0.5, np.ones((8, 8)))[:side, :side]
    message = DEPTH * pattern(algorithm, side) * used
    return pixels + message[:, :, None]


def to_jpeg(pixels: np.ndarray, path: Path, quality: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    image = Image.fromarray(np.clip(np.round(pixels), 0, 255).astype(np.uint8))
    image.save(path, quality=quality)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    for k in range(1, size.n_train + 1):
        pixels, quality = cover(rng, size.side), int(rng.choice(QUALITIES))
        to_jpeg(pixels, public / "Cover" / f"{k:05d}.jpg", quality)
        for algorithm in ALGORITHMS:
            to_jpeg(embed(rng, pixels, algorithm), public / algorithm / f"{k:05d}.jpg", quality)
    labels = rng.random(size.n_test) < 0.5
    labels[:2] = [False, True]  # both classes, however small the fixture
    rows = []
    for k, hidden in enumerate(labels, start=1):
        pixels, quality = cover(rng, size.side), int(rng.choice(QUALITIES))
        if hidden:
            pixels = embed(rng, pixels, str(rng.choice(ALGORITHMS)))
        to_jpeg(pixels, public / "Test" / f"{k:04d}.jpg", quality)
        rows.append({"Id": f"{k:04d}.jpg", "Label": int(hidden)})
    answers = pd.DataFrame(rows)
    answers.to_csv(private / "test.csv", index=False)
    answers.assign(Label=0).to_csv(public / "sample_submission.csv", index=False)
