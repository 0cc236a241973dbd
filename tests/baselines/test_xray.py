"""Radiographs from DICOM: windowed, inverted when stored white-on-black, squashed to a square,
with their own size kept for the boxes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pydicom

from baselines.xray import read_xray, read_xrays
from bench_adapters.mlebench.synthetic.dicom import uid, write_dicom

XRAY = "1.2.840.10008.5.1.4.1.1.1.1"


def test_read_xray_scales_inverts_and_resizes(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    pixels = np.zeros((30, 20), np.uint16)
    pixels[:, 10:] = 4000  # bright right half
    normal, inverted = tmp_path / "a.dcm", tmp_path / "b.dcm"
    write_dicom(normal, pixels, XRAY, uid(rng), {})
    write_dicom(inverted, pixels, XRAY, uid(rng), {})
    record = pydicom.dcmread(inverted)
    record.PhotometricInterpretation = "MONOCHROME1"  # stored white-on-black
    record.save_as(inverted)
    image, width, height = read_xray(normal, 16)
    assert image.shape == (16, 16) and (width, height) == (20, 30)
    assert image[:, :6].max() == 0 and image[:, 10:].min() == 255
    flipped, _, _ = read_xray(inverted, 16)
    assert np.abs(flipped.astype(int) - (255 - image)).max() <= 1  # rounding apart
    images, sizes = read_xrays([normal, inverted], 8, 2, lambda _: None)
    assert images.shape == (2, 8, 8) and sizes.tolist() == [[20, 30], [20, 30]]
