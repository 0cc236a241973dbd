"""Writing a minimal NIfTI-1 volume (a single ``.nii`` file) without a NIfTI library.

The file is the 348-byte header, four zero bytes (no extension), then the voxels in
Fortran order (x fastest), little endian; ``qform`` and ``sform`` codes 0, unit voxel sizes
unless given. Readers such as nibabel need only these fields.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

_DATATYPES = {
    np.dtype(np.uint8): (2, 8),
    np.dtype(np.int16): (4, 16),
    np.dtype(np.float32): (16, 32),
}
"""numpy dtype -> (NIfTI datatype code, bits per voxel)."""


def write_nifti(
    path: Path, volume: np.ndarray, spacing: tuple[float, ...] = (1.0, 1.0, 1.0)
) -> None:
    """Write a 3-D ``volume`` (uint8, int16 or float32) with voxel ``spacing`` in mm."""
    if volume.ndim != 3 or volume.dtype not in _DATATYPES:
        raise ValueError(
            f"need a 3-D uint8/int16/float32 volume, got {volume.dtype} {volume.shape}"
        )
    code, bits = _DATATYPES[volume.dtype]
    header = bytearray(348)
    struct.pack_into("<i", header, 0, 348)
    struct.pack_into("<8h", header, 40, 3, *volume.shape, 1, 1, 1, 1)
    struct.pack_into("<hh", header, 70, code, bits)
    struct.pack_into("<8f", header, 76, 1.0, *spacing, 0.0, 0.0, 0.0, 0.0)
    struct.pack_into("<f", header, 108, 352.0)  # vox_offset
    struct.pack_into("<f", header, 112, 1.0)  # scl_slope
    struct.pack_into("<B", header, 123, 2)  # xyzt_units: millimetres
    header[344:348] = b"n+1\x00"
    data = np.asarray(volume, dtype=volume.dtype.newbyteorder("<")).tobytes(order="F")
    path.write_bytes(bytes(header) + b"\x00" * 4 + data)
