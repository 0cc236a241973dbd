"""What the three Herbarium generators share: species, their split, and the pressed specimens.

A species is drawn as a plant on a mounting sheet: its leaf colour (12 hues), leaf shape (4),
leaf count (4), stem lean (2), leaf size (3) and flower colour (4) follow from its number, so
neighbouring species differ in one trait and a model can learn them. Every sheet has a label
block in the corner, as real herbarium sheets do. Sheets are portrait, 2:3.
"""

from __future__ import annotations

import colorsys
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from .imaging import Canvas, jitter

FLOWERS = [(230, 60, 60), (250, 220, 60), (240, 240, 240), (150, 80, 200)]


@dataclass(frozen=True)
class Specimens:
    """The species of every train and test sheet, as indexes into ``category_ids``."""

    category_ids: np.ndarray
    """The species' category ids (sorted), a subset of the real id range."""
    train: np.ndarray
    test: np.ndarray


def specimens(rng: np.random.Generator, n_train: int, n_test: int, n_real: int) -> Specimens:
    """Species for ``n_train`` and ``n_test`` sheets: about one species per 32 sheets (the
    real ratio), at most ``n_real``, at least 4, never more than there are test sheets, so that
    every species is in both sets (upstream splits per species). Species sizes are long-tailed."""
    n = n_train + n_test
    count = int(min(n_real, max(4, n // 32), n_test, n_train))
    category_ids = np.sort(rng.choice(n_real, count, replace=False))
    weight = rng.pareto(1.5, count) + 1
    weight /= weight.sum()

    def draw(k: int) -> np.ndarray:
        labels = np.concatenate([np.arange(count), rng.choice(count, k - count, p=weight)])
        return labels[rng.permutation(k)]

    return Specimens(category_ids, draw(n_train), draw(n_test))


def draw(rng: np.random.Generator, side: int, species: int) -> Image.Image:
    """A sheet ``side`` pixels high showing species number ``species`` (0-based index)."""
    hue, shape, count = species % 12, (species // 12) % 4, 2 + (species // 48) % 4
    lean, size, flower = (species // 192) % 2, (species // 384) % 3, (species // 1152) % 4
    width = max(8, round(side * 2 / 3))
    canvas = Canvas(width, side, jitter(rng, (236, 230, 212), 8))
    base_x = rng.uniform(0.4, 0.6)
    top_x = base_x + (0.15 if lean else -0.15) + rng.uniform(-0.03, 0.03)
    canvas.line([(base_x, 0.92), (top_x, 0.12)], jitter(rng, (90, 110, 60), 10), 0.015)
    r, g, b = colorsys.hsv_to_rgb(hue / 12, 0.7, 0.6)
    leaf = (255 * r, 255 * g, 255 * b)
    length = (0.07, 0.1, 0.13)[size]
    for k in range(count):
        t = (k + 1) / (count + 1)
        x, y = base_x + (top_x - base_x) * t, 0.92 - 0.8 * t
        side_x = x + (length if k % 2 else -length)
        colour = jitter(rng, leaf, 12)
        if shape == 0:  # broad oval
            canvas.ellipse(side_x, y, length, length * 0.55, colour)
        elif shape == 1:  # narrow blade
            canvas.ellipse(side_x, y, length, length * 0.2, colour)
        elif shape == 2:  # triangle
            canvas.polygon([(x, y - 0.04), (x, y + 0.04), (side_x + length, y)], colour)
        else:  # round
            canvas.ellipse(side_x, y, length * 0.6, length * 0.6 * 1.5, colour)
    canvas.ellipse(top_x, 0.1, 0.05, 0.035, jitter(rng, FLOWERS[flower], 10))
    canvas.rectangle(0.62, 0.86, 0.96, 0.97, jitter(rng, (250, 250, 245), 4))  # the label
    return canvas.finish(rng, noise=4, blur=0.3)


SYLLABLES = ["ca", "ra", "li", "phy", "to", "me", "ni", "so", "la", "ve", "ru", "da", "xi", "po"]
AUTHORS = ["L.", "Michx.", "Torr. & A.Gray", "Nutt.", "Britton", "Raf.", "Greene", "Benth."]
FAMILIES = ["Asteraceae", "Fabaceae", "Poaceae", "Rosaceae", "Lamiaceae", "Orchidaceae"]


@dataclass(frozen=True)
class Name:
    family: str
    genus: str
    epithet: str
    author: str

    @property
    def scientific(self) -> str:
        return f"{self.genus} {self.epithet}"


def names(rng: np.random.Generator, count: int) -> list[Name]:
    """A made-up Latin name per species; about eight species share a genus."""
    n_genera = max(1, count // 8)
    genera = [
        "".join(rng.choice(SYLLABLES, 3)).capitalize() + ("ia", "us", "um")[k % 3]
        for k in range(n_genera)
    ]
    return [
        Name(
            family=FAMILIES[(k % n_genera) % len(FAMILIES)],
            genus=genera[k % n_genera],
            epithet="".join(rng.choice(SYLLABLES, 2)) + ("a", "is", "ens", "um")[k % 4],
            author=AUTHORS[k % len(AUTHORS)],
        )
        for k in range(count)
    ]


def train_order(rng: np.random.Generator, labels: np.ndarray) -> np.ndarray:
    """Train sheets grouped by species, species in a shuffled order, as upstream writes them
    (it walks the species in their order of appearance)."""
    rank = rng.permutation(int(labels.max()) + 1)
    return np.argsort(rank[labels], kind="stable")


def info() -> dict[str, object]:
    return {
        "contributor": "synthetic stand-in",
        "date_created": "2024-01-01",
        "description": "Synthetic herbarium sheets in the layout of the Kaggle competition",
        "url": "https://example.org",
        "version": "1.0",
        "year": 2024,
    }


LICENSES = [{"id": 0, "name": "Public Domain Dedication", "url": "http://creativecommons.org"}]


def coco_image(file_name: str, image_id: int | str, dims: tuple[int, int]) -> dict[str, object]:
    """An ``images`` entry of the 2020 and 2021 metadata."""
    width, height = dims
    return {"file_name": file_name, "height": height, "id": image_id, "license": 0, "width": width}


def write_json(path: Path, metadata: object) -> None:
    """As upstream writes the metadata: indented by 4, keys sorted."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        json.dump(metadata, f, indent=4, sort_keys=True)
