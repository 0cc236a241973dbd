"""Chest radiographs in DICOM for the box baselines (siim-covid19-detection, vinbigdata): read
with pydicom, windowed, inverted where stored white-on-black, and resized to a square.

pydicom decodes the uncompressed files itself; Kaggle's JPEG 2000 and JPEG-lossless files
need its pylibjpeg plugins (the ``gpu`` extra). The value-of-interest window the file carries
(``apply_voi_lut``) is applied first, then the pixels are stretched over their own range, and
``MONOCHROME1`` images (bright air) are inverted so that every image shows bone bright.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from PIL import Image


def read_xray(path: Path, size: int) -> tuple[np.ndarray, int, int]:
    """A radiograph as a ``size`` x ``size`` uint8 array (squashed to a square, bilinear), and
    its width and height in the file's own pixels (which box coordinates are in)."""
    import pydicom
    from pydicom.pixels import apply_voi_lut

    record = pydicom.dcmread(path)
    pixels = apply_voi_lut(record.pixel_array, record).astype(np.float32)
    low, high = float(pixels.min()), float(pixels.max())
    pixels = (pixels - low) / max(high - low, 1e-6)
    if record.get("PhotometricInterpretation") == "MONOCHROME1":
        pixels = 1 - pixels
    height, width = pixels.shape
    image = Image.fromarray(pixels).resize((size, size), Image.Resampling.BILINEAR)
    return (np.asarray(image) * 255).clip(0, 255).astype(np.uint8), width, height


def read_xrays(
    paths: Sequence[Path], size: int, threads: int, log: Callable[[str], None]
) -> tuple[np.ndarray, np.ndarray]:
    """Every radiograph, in ``threads`` threads: ``(N, size, size)`` uint8 and ``(N, 2)``
    original (width, height); a progress line every tenth of a large set."""
    images = np.zeros((len(paths), size, size), np.uint8)
    sizes = np.zeros((len(paths), 2), np.int64)
    step = max(1, len(paths) // 10) if len(paths) >= 2000 else len(paths)

    def load(i: int) -> None:
        images[i], sizes[i, 0], sizes[i, 1] = read_xray(paths[i], size)

    with ThreadPoolExecutor(max(1, threads)) as pool:
        for done, _ in enumerate(pool.map(load, range(len(paths))), start=1):
            if done % step == 0 or done == len(paths):
                log(f"decoded {done:,}/{len(paths):,} radiographs at {size}x{size}")
    return images, sizes
