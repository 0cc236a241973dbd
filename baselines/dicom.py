"""CT and MR series in DICOM for the scan baselines (osic, rsna-miccai, rsna-2022): one folder of
slices read as a volume of a fixed shape, in the scanner's own units.

pydicom decodes the uncompressed files itself; Kaggle's JPEG 2000 and JPEG-lossless files
need its pylibjpeg plugins (the ``gpu`` extra). Slices are ordered along the patient's axis
(``ImagePositionPatient``'s last value, else ``InstanceNumber``), ``depth`` of them taken at
even spacing (headers only are read to order them, so a 500-slice scan decodes ``depth``
images), the modality LUT applied (Hounsfield units for CT), each resized to ``side`` pixels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from PIL import Image


def slice_order(paths: Sequence[Path]) -> list[Path]:
    """The slice files ordered along the patient's axis, from their headers alone."""
    import pydicom

    def position(path: Path) -> tuple[float, float]:
        header = pydicom.dcmread(path, stop_before_pixels=True)
        where = header.get("ImagePositionPatient")
        number = float(header.get("InstanceNumber") or 0)
        return (float(where[2]) if where else number, number)

    keyed = sorted((position(p), str(p)) for p in paths)
    return [Path(p) for _, p in keyed]


def read_volume(folder: Path, depth: int, side: int) -> np.ndarray:
    """``depth`` evenly spaced slices of the series in ``folder`` (its ``*.dcm`` files) as a
    ``(depth, side, side)`` float32 volume in the modality's units (a series of fewer slices
    repeats its nearest ones)."""
    import pydicom
    from pydicom.pixels import apply_modality_lut

    ordered = slice_order(sorted(folder.glob("*.dcm")))
    if not ordered:
        raise FileNotFoundError(f"no .dcm files in {folder}")
    picks = np.rint(np.linspace(0, len(ordered) - 1, depth)).astype(int)
    volume = np.zeros((depth, side, side), np.float32)
    for k, index in enumerate(picks):
        record = pydicom.dcmread(ordered[index])
        pixels = apply_modality_lut(record.pixel_array, record).astype(np.float32)
        volume[k] = np.asarray(
            Image.fromarray(pixels).resize((side, side), Image.Resampling.BILINEAR)
        )
    return volume


def read_volumes(
    folders: Sequence[Path], depth: int, side: int, threads: int, log: Callable[[str], None]
) -> np.ndarray:
    """Every series, in ``threads`` threads: ``(N, depth, side, side)`` float32; a progress
    line every tenth of a large set."""
    volumes = np.zeros((len(folders), depth, side, side), np.float32)
    step = max(1, len(folders) // 10) if len(folders) >= 200 else len(folders)

    def load(i: int) -> None:
        volumes[i] = read_volume(folders[i], depth, side)

    with ThreadPoolExecutor(max(1, threads)) as pool:
        for done, _ in enumerate(pool.map(load, range(len(folders))), start=1):
            if done % step == 0 or done == len(folders):
                log(f"decoded {done:,}/{len(folders):,} series at {depth}x{side}x{side}")
    return volumes
