"""Drawing the synthetic images: a noisy background, a few shapes, sensor noise, a file.

Coordinates are fractions of the image side, so one drawing works at 32 pixels (tests) and
at 512 (the full-size stand-ins); a label changes what is drawn (a shape, its colour, its
count), which is the signal a model learns.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

RGB = tuple[int, int, int]


def jitter(rng: np.random.Generator, colour: Sequence[float], spread: float = 20) -> RGB:
    """A colour near ``colour``: each channel moved by up to ``spread``."""
    r, g, b = (
        int(min(255.0, max(0.0, c + d)))
        for c, d in zip(colour, rng.uniform(-spread, spread, 3), strict=True)
    )
    return r, g, b


def pair(rng: np.random.Generator, low: float, high: float) -> tuple[float, float]:
    """Two uniform draws in [low, high): an ellipse's radii, or a point's coordinates."""
    a, b = rng.uniform(low, high, 2)
    return float(a), float(b)


class Canvas:
    """One image being drawn; shapes take coordinates as fractions of width and height."""

    def __init__(self, width: int, height: int, background: RGB, mode: str = "RGB") -> None:
        self.width, self.height = width, height
        fill = background if mode == "RGB" else int(np.mean(background))
        self.image = Image.new(mode, (width, height), fill)
        self.draw = ImageDraw.Draw(self.image)

    def _xy(self, points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
        return [(x * self.width, y * self.height) for x, y in points]

    def _fill(self, colour: RGB) -> RGB | int:
        return colour if self.image.mode == "RGB" else int(np.mean(colour))

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, colour: RGB) -> None:
        box = self._xy([(cx - rx, cy - ry), (cx + rx, cy + ry)])
        self.draw.ellipse([box[0], box[1]], fill=self._fill(colour))

    def polygon(self, points: Sequence[tuple[float, float]], colour: RGB) -> None:
        self.draw.polygon(self._xy(points), fill=self._fill(colour))

    def line(self, points: Sequence[tuple[float, float]], colour: RGB, width: float) -> None:
        pixels = max(1, round(width * min(self.width, self.height)))
        self.draw.line(self._xy(points), fill=self._fill(colour), width=pixels, joint="curve")

    def rectangle(self, x0: float, y0: float, x1: float, y1: float, colour: RGB) -> None:
        box = self._xy([(x0, y0), (x1, y1)])
        self.draw.rectangle([box[0], box[1]], fill=self._fill(colour))

    def finish(self, rng: np.random.Generator, noise: float, blur: float = 0.0) -> Image.Image:
        """The image with an optional blur (in pixels at side 100) and Gaussian noise."""
        image = self.image
        if blur:
            image = image.filter(
                ImageFilter.GaussianBlur(blur * min(self.width, self.height) / 100)
            )
        pixels = np.asarray(image, np.float32)
        noisy = pixels + rng.normal(0, noise, pixels.shape)
        return Image.fromarray(np.clip(noisy, 0, 255).astype(np.uint8), mode=image.mode)


def blob(
    rng: np.random.Generator, cx: float, cy: float, radius: float, roughness: float, n: int = 14
) -> list[tuple[float, float]]:
    """A closed outline around (cx, cy): a circle when ``roughness`` is 0, irregular above."""
    angles = np.sort(rng.uniform(0, 2 * np.pi, n))
    radii = radius * (1 + roughness * rng.uniform(-1, 1, n))
    return [(cx + r * np.cos(a), cy + r * np.sin(a)) for a, r in zip(angles, radii, strict=True)]


def save(image: Image.Image, path: Path) -> None:
    """By suffix: ``.jpg`` (quality 90), ``.png``, ``.tif`` (uncompressed, as Kaggle's)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".jpg":
        image.save(path, quality=90)
    else:
        image.save(path)
