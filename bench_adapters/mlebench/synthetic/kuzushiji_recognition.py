"""kuzushiji-recognition: pages of old Japanese script, one box per character.

Each page is beige paper with characters in vertical columns, read right to left; every
character class has its own glyph (a few ink strokes fixed by the class), so a detector and a
classifier can learn both where characters are and which they are. Labels are
``"U+XXXX x y w h"`` per character (top-left corner and size, integer pixels of the page image
itself; Kaggle's pages are scans of about 3,900 x 2,400 pixels, these are stand-ins capped at
``side`` pixels high, 2:3 portrait).

Public: ``train.csv`` (``image_id,labels``), ``train_images.zip`` and ``test_images.zip``
(``<image_id>.jpg`` at the archive's root, as ``shutil.make_archive`` writes them),
``unicode_translation.csv`` (``Unicode,char``) and ``sample_submission.csv`` (the test ids,
``labels`` = ``U+003F 1 1 U+FF2F 2 2`` for every page, as upstream). Private: ``test.csv``
(``image_id,labels``) and ``gold_submission.csv`` (each box's corner plus one: ``U+XXXX x+1
y+1``). Both splits keep the order of upstream's shuffled 90/10 split.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image, ImageDraw

from .common import Size, split

N_CLASSES = 48
CLASSES = [f"U+{0x3042 + 2 * k:04X}" for k in range(N_CLASSES)]
"""Hiragana-range code points (every other one), the stand-in character set."""
SAMPLE_LABELS = "U+003F 1 1 U+FF2F 2 2"
EXTRA_TRANSLATIONS = ["U+003F", "U+FF2F"]
"""Code points ``unicode_translation.csv`` lists beyond the classes (the sample's guesses)."""


def check_size(size: Size) -> None:
    if size.side < 48:
        raise ValueError(f"kuzushiji pages need a side of at least 48 pixels, got {size.side}")


def glyph_strokes(k: int) -> list[list[tuple[float, float]]]:
    """The strokes of class ``k`` in a unit box: fixed by the class, whatever the page."""
    rng = np.random.default_rng(1000 + k)
    strokes = []
    for _ in range(2 + k % 3):
        points = rng.uniform(0.1, 0.9, (int(rng.integers(2, 4)), 2))
        strokes.append([(float(x), float(y)) for x, y in points])
    return strokes


def image_ids(rng: np.random.Generator, n: int) -> list[str]:
    """Ids in Kaggle's two spellings: ``100241706_00004_2`` and ``umgy001-020``."""
    ids: set[str] = set()
    while len(ids) < n:
        if rng.random() < 0.6:
            book, page = int(rng.integers(100_000_000, 300_000_000)), int(rng.integers(1, 99))
            ids.add(f"{book}_{page:05d}_{int(rng.integers(1, 3))}")
        else:
            code = "".join(rng.choice(list("abcdefghijklmnopqrstuvwxyz"), 4))
            ids.add(f"{code}{int(rng.integers(1, 20)):03d}-{int(rng.integers(1, 99)):03d}")
    return sorted(ids)


def page(rng: np.random.Generator, side: int, n_chars: int) -> tuple[Image.Image, list[str]]:
    """One page and its ``U+XXXX x y w h`` tokens, columns from the right."""
    height, width = side, round(side * 2 / 3)
    image = Image.new("RGB", (width, height), tuple(int(c) for c in rng.integers(200, 236, 3)))
    draw = ImageDraw.Draw(image)
    glyph = max(6, round(side / np.sqrt(max(n_chars, 1)) / 2.2))
    per_column = max(1, (height - 2 * glyph) // (glyph + 2))
    tokens: list[str] = []
    x_right = width - glyph
    placed = 0
    while placed < n_chars and x_right - glyph > 0:
        y = glyph // 2 + int(rng.integers(0, glyph // 2 + 1))
        for _ in range(min(per_column, n_chars - placed)):
            w = max(3, glyph + int(rng.integers(-glyph // 4, glyph // 4 + 1)))
            h = max(3, glyph + int(rng.integers(-glyph // 4, glyph // 4 + 1)))
            if y + h >= height:
                break
            x = x_right - w
            k = int(rng.integers(N_CLASSES))
            ink = tuple(int(c) for c in rng.integers(10, 60, 3))
            for stroke in glyph_strokes(k):
                draw.line(
                    [(x + px * w, y + py * h) for px, py in stroke],
                    fill=ink,
                    width=max(1, w // 6),
                )
            tokens += [CLASSES[k], str(x), str(y), str(w), str(h)]
            y += h + int(rng.integers(1, 4))
            placed += 1
        x_right -= glyph + int(rng.integers(2, max(3, glyph // 2)))
    pixels = np.asarray(image, np.float32) + rng.normal(0, 4, (height, width, 3))
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8)), tokens


def gold_labels(labels: str) -> str:
    """Each box's corner moved one pixel in (upstream's gold: ``x+1 y+1``)."""
    tokens = labels.split()
    return " ".join(
        f"{c} {int(x) + 1} {int(y) + 1}"
        for c, x, y in zip(tokens[0::5], tokens[1::5], tokens[2::5], strict=True)
    )


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    ids = image_ids(rng, n)
    low, high = (4, 13) if size.side < 256 else (60, 300)  # Kaggle's pages: about 176
    counts = rng.integers(low, high, n)
    train_rows, test_rows = split(rng, n, size.n_test)
    labels = [""] * n
    for name, rows in (("train", train_rows), ("test", test_rows)):
        with zipfile.ZipFile(public / f"{name}_images.zip", "w", zipfile.ZIP_DEFLATED) as zf:
            for row in rows:
                image, tokens = page(rng, size.side, int(counts[row]))
                labels[row] = " ".join(tokens)
                buffer = io.BytesIO()
                image.save(buffer, format="JPEG", quality=85)
                zf.writestr(f"{ids[row]}.jpg", buffer.getvalue())
    frame = pd.DataFrame({"image_id": ids, "labels": labels})
    train, test = frame.iloc[train_rows], frame.iloc[test_rows]
    train.to_csv(public / "train.csv", index=False)
    test.to_csv(private / "test.csv", index=False)
    test.assign(labels=SAMPLE_LABELS).to_csv(public / "sample_submission.csv", index=False)
    test.assign(labels=test["labels"].map(gold_labels)).to_csv(
        private / "gold_submission.csv", index=False
    )
    translation = pd.DataFrame({"Unicode": CLASSES + EXTRA_TRANSLATIONS})
    translation["char"] = [chr(int(code[2:], 16)) for code in translation["Unicode"]]
    translation.to_csv(public / "unicode_translation.csv", index=False)
