"""denoising-dirty-documents: grey scans of typed pages with stains, creases and noise, and
their clean versions (black strokes of "text" on white).

Public: ``train/<n>.png`` (dirty), ``train_cleaned/<n>.png`` (clean), ``test/<n>.png``
(dirty), ``sampleSubmission.csv`` (``id,value`` = 1). Private: ``answers.csv``: one row per
test pixel, ``id = <image>_<row>_<col>`` (1-based), ``value`` = clean intensity / 255, images
in sorted file-name order, pixels row by row, as upstream writes it. Images are 540 pixels
wide and 258 or 420 high at full size (``side`` sets the width); names are numbers.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image, ImageFilter

from .common import Size

HEIGHTS = (258, 420)  # per 540 of width, as Kaggle's pages
REAL_WIDTH = 540


def clean_page(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """Rows of "words": runs of dark letter-sized strokes on white, as uint8."""
    page = np.full((height, width), 255, np.uint8)
    scale = width / REAL_WIDTH
    line_h = max(3, round(rng.uniform(14, 22) * scale))
    top = max(1, round(rng.uniform(10, 30) * scale))
    for y in range(top, height - line_h, round(line_h * 1.7)):
        x = max(1, round(rng.uniform(8, 30) * scale))
        while x < width - line_h:
            for _ in range(rng.integers(2, 9)):  # letters of one word
                w = max(1, round(rng.uniform(0.35, 0.7) * line_h))
                if x + w >= width:
                    break
                h0 = y + round(rng.uniform(0, 0.3) * line_h)
                stroke = max(1, round(line_h * 0.18))
                ink = rng.integers(0, 60)
                page[h0 : y + line_h, x : x + stroke] = ink
                page[h0 : h0 + stroke, x : x + w] = ink
                if rng.random() < 0.5:
                    page[y + line_h - stroke : y + line_h, x : x + w] = ink
                x += w + max(1, round(0.2 * line_h))
            x += round(line_h * rng.uniform(0.6, 1.2))
    return page


def dirty(rng: np.random.Generator, page: np.ndarray) -> np.ndarray:
    """The page under a stained, uneven, noisy background (text stays darkest)."""
    height, width = page.shape
    yy, xx = np.mgrid[0:height, 0:width] / max(height, width)
    background = 0.85 + 0.1 * np.sin(rng.uniform(2, 8) * xx + rng.uniform(0, 6)) * np.cos(
        rng.uniform(2, 8) * yy
    )
    for _ in range(rng.integers(1, 4)):  # coffee stains: darker rings
        cx, cy, r = rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.1, 0.3)
        d = np.hypot(xx - cx, yy - cy)
        background -= 0.25 * np.exp(-(((d - r) / (0.03 + 0.1 * r)) ** 2))
    ink = page.astype(float) / 255
    pixels = 255 * np.minimum(background, 0.25 + 0.75 * ink) + rng.normal(0, 8, page.shape)
    image = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))
    return np.asarray(image.filter(ImageFilter.GaussianBlur(0.5)))


def pixel_rows(name: str, clean: np.ndarray) -> pd.DataFrame:
    rows, cols = np.indices(clean.shape)
    return pd.DataFrame(
        {
            "id": [
                f"{name}_{r + 1}_{c + 1}" for r, c in zip(rows.ravel(), cols.ravel(), strict=True)
            ],
            "value": clean.ravel() / 255.0,
        }
    )


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    names = [str(k) for k in rng.choice(np.arange(1, 10 * n + 2), n, replace=False)]
    test_names = set(rng.choice(names, size.n_test, replace=False))
    answers = []
    for name in names:
        height = round(size.side * rng.choice(HEIGHTS) / REAL_WIDTH)
        clean = clean_page(rng, size.side, height)
        folder = "test" if name in test_names else "train"
        (public / folder).mkdir(exist_ok=True)
        Image.fromarray(dirty(rng, clean)).save(public / folder / f"{name}.png")
        if name in test_names:
            answers.append((f"{name}.png", pixel_rows(name, clean)))
        else:
            (public / "train_cleaned").mkdir(exist_ok=True)
            Image.fromarray(clean).save(public / "train_cleaned" / f"{name}.png")
    frame = pd.concat([rows for _, rows in sorted(answers, key=lambda a: a[0])])
    frame.to_csv(private / "answers.csv", index=False)
    frame.assign(value=1).to_csv(public / "sampleSubmission.csv", index=False)
