"""vesuvius-challenge-ink-detection: x-ray surface volumes of three papyrus fragments, the
first two for training and the third, renamed ``a``, for test (upstream's split).

A fragment is an irregular papyrus oval; its ink is lines of pen strokes. The surface volume
is a stack of 16-bit slices through the papyrus: ink shows as a faint brightening in the middle
slices (where the writing surface lies), which is the signal. Labels: ``inklabels.png`` (0 or
255) and ``inklabels_rle.csv`` (``Id, Predicted``; pixels numbered left to right, then down,
as this competition's encoding, ``rlecodec``'s ``"row"`` order).

Public: ``train/1/`` and ``train/2/`` (``surface_volume/00.tif`` ... , ``mask.png``,
``inklabels.png``, ``inklabels_rle.csv``, ``ir.png``), ``test/a/`` (``surface_volume/`` and
``mask.png`` only: upstream keeps the labels and ``ir.png`` back) and
``sample_submission.csv`` (``a,1 1 5 1``). Private: ``inklabels_rle.csv`` (``Id, Predicted,
width, height``) and ``gold_submission.csv`` (``Id, Predicted``).

Sizes: ``n_train`` and ``n_test`` are the slices in each training and in the test fragment's
volume (65 on Kaggle); ``side`` is the test fragment's height in pixels (7,606 on Kaggle;
the others keep Kaggle's proportions). The labels and ``mask.png`` are at that resolution;
the surface volume and ``ir.png`` are at most ``VOLUME_CAP`` pixels a side, every fragment
shrunk by one factor (Kaggle's volumes are 37 GB).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image, ImageDraw

from rlecodec import encode

from .common import Size

FRAGMENTS = {"1": (6_330, 8_181), "2": (9_506, 14_830), "a": (5_249, 7_606)}
"""Kaggle's (width, height) of fragments 1, 2 and 3 (the test one, renamed ``a``)."""
VOLUME_CAP = 1024
Stroke = tuple[float, float, float, float]
"""``x0, y0, x1, y1`` in fractions of the fragment's width and height."""


def check_size(size: Size) -> None:
    if size.side < 48:
        raise ValueError(f"side must be at least 48 pixels, got {size.side}")


def strokes(rng: np.random.Generator) -> list[Stroke]:
    """Lines of writing: letters of two or three short strokes, in rows across the papyrus."""
    out: list[Stroke] = []
    for row in np.arange(0.2, 0.8, 0.07):
        x = 0.2 + rng.uniform(0, 0.05)
        while x < 0.8:
            for _ in range(int(rng.integers(2, 4))):
                x0, y0 = x + rng.uniform(0, 0.02), row + rng.uniform(0, 0.03)
                angle = rng.uniform(0, np.pi)
                out.append((x0, y0, x0 + 0.025 * np.cos(angle), y0 + 0.03 * np.sin(angle)))
            x += rng.uniform(0.04, 0.07)
    return out


def papyrus(rng: np.random.Generator) -> list[tuple[float, float]]:
    """The fragment's outline: an irregular oval, in fractions of width and height."""
    angles = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    radius = 0.45 * (1 + 0.08 * rng.uniform(-1, 1, len(angles)))
    return [(0.5 + r * np.cos(a), 0.5 + r * np.sin(a)) for a, r in zip(angles, radius, strict=True)]


def draw(
    width: int, height: int, outline: list[tuple[float, float]], lines: list[Stroke]
) -> tuple[np.ndarray, np.ndarray]:
    """The fragment's mask and ink at ``width x height``, as boolean arrays."""
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).polygon([(x * width, y * height) for x, y in outline], fill=1)
    ink = Image.new("L", (width, height), 0)
    pen = ImageDraw.Draw(ink)
    stroke_width = max(1, round(height / 160))
    for x0, y0, x1, y1 in lines:
        pen.line([(x0 * width, y0 * height), (x1 * width, y1 * height)], fill=1, width=stroke_width)
    inside = np.asarray(mask, dtype=bool)
    return inside, np.asarray(ink, dtype=bool) & inside


def write_fragment(
    rng: np.random.Generator, folder: Path, name: str, size: Size, layers: int, scale: float
) -> tuple[str, int, int]:
    """One fragment's files; returns its labels' encoding, width and height."""
    real_width, real_height = FRAGMENTS[name]
    height = round(size.side * real_height / FRAGMENTS["a"][1])
    width = round(height * real_width / real_height)
    outline, lines = papyrus(rng), strokes(rng)
    inside, ink = draw(width, height, outline, lines)
    (folder / "surface_volume").mkdir(parents=True)
    Image.fromarray(inside.astype(np.uint8) * 255).save(folder / "mask.png")
    small_inside, small_ink = draw(max(1, round(width * scale)), max(1, round(height * scale)),
                                   outline, lines)  # fmt: skip
    surface = (layers - 1) / 2
    for k in range(layers):
        brightening = 5000 * np.exp(-(((k - surface) / max(1.0, layers / 8)) ** 2))
        pixels = np.where(small_inside, 22000.0, 4000.0) + brightening * small_ink
        pixels += rng.normal(0, 1500, pixels.shape)
        slice_ = np.clip(pixels, 0, 65535).astype(np.uint16)
        Image.fromarray(slice_).save(folder / "surface_volume" / f"{k:02}.tif")
    encoding = encode(ink, "row")
    if name != "a":
        Image.fromarray(ink.astype(np.uint8) * 255).save(folder / "inklabels.png")
        pd.DataFrame({"Id": [name], "Predicted": [encoding]}).to_csv(
            folder / "inklabels_rle.csv", index=False
        )
        ir = (
            np.where(small_inside, 170.0, 20.0) - 90 * small_ink + rng.normal(0, 8, small_ink.shape)
        )
        Image.fromarray(np.clip(ir, 0, 255).astype(np.uint8)).save(folder / "ir.png")
    return encoding, width, height


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    largest = size.side * max(h for _, h in FRAGMENTS.values()) / FRAGMENTS["a"][1]
    scale = min(1.0, VOLUME_CAP / largest)
    for name in ("1", "2"):
        write_fragment(rng, public / "train" / name, name, size, size.n_train, scale)
    encoding, width, height = write_fragment(
        rng, public / "test" / "a", "a", size, size.n_test, scale
    )
    answers = pd.DataFrame({"Id": ["a"], "Predicted": [encoding], "width": width, "height": height})
    answers.to_csv(private / "inklabels_rle.csv", index=False)
    answers[["Id", "Predicted"]].to_csv(private / "gold_submission.csv", index=False)
    pd.DataFrame({"Id": ["a"], "Predicted": ["1 1 5 1"]}).to_csv(
        public / "sample_submission.csv", index=False
    )
