"""The DICOM series reader: slices in the patient's order whatever their file names, the
modality's units, a JPEG 2000 slice (as Kaggle's compressed scans) decoded by pylibjpeg."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pydicom
from pydicom.uid import JPEG2000Lossless

from baselines.dicom import read_volume
from bench_adapters.mlebench.synthetic.dicom import uid, write_dicom

CT = "1.2.840.10008.5.1.4.1.1.2"


def write_series(folder: Path, levels: list[int]) -> None:
    """One 32x32 slice a level, stored value 1000 + level (HU: level - 24), files named in an
    order unrelated to their position; the third file JPEG 2000 compressed."""
    rng = np.random.default_rng(0)
    folder.mkdir()
    for name, level in enumerate(levels):
        path = folder / f"{name}.dcm"
        elements = {
            (0x0020, 0x0013): ("IS", str(name + 1)),
            (0x0020, 0x0032): ("DS", f"0\\0\\{level}"),
            (0x0028, 0x1052): ("DS", "-1024"),
            (0x0028, 0x1053): ("DS", "1"),
        }
        write_dicom(path, np.full((32, 32), 1000 + level, np.uint16), CT, uid(rng), elements)
        if name == 2:
            record = pydicom.dcmread(path)
            record.compress(JPEG2000Lossless, encoding_plugin="pylibjpeg")
            record.save_as(path)


def test_a_series_reads_in_position_order_in_hounsfield_units(tmp_path: Path) -> None:
    write_series(tmp_path / "scan", [30, 10, 50, 20, 40])
    assert pydicom.dcmread(tmp_path / "scan" / "2.dcm").file_meta.TransferSyntaxUID.is_compressed
    volume = read_volume(tmp_path / "scan", depth=5, side=4)
    assert volume.shape == (5, 4, 4) and volume.dtype == np.float32
    assert volume[:, 0, 0].tolist() == [-14.0, -4.0, 6.0, 16.0, 26.0]  # 50 (compressed) last


def test_depth_picks_evenly_spaced_slices_and_repeats_when_short(tmp_path: Path) -> None:
    write_series(tmp_path / "scan", [30, 10, 50, 20, 40])
    assert read_volume(tmp_path / "scan", depth=3, side=4)[:, 0, 0].tolist() == [-14, 6, 26]
    stretched = read_volume(tmp_path / "scan", depth=9, side=4)[:, 0, 0].tolist()
    assert stretched == sorted(stretched) and set(stretched) == {-14, -4, 6, 16, 26}
