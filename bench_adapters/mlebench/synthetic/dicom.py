"""Writing minimal, valid DICOM files (Part 10) of one 16-bit greyscale image, without a
DICOM library.

A file is a 128-byte preamble, ``DICM``, the file meta group (0002) and the data set, all in
Explicit VR Little Endian (transfer syntax 1.2.840.10008.1.2.1), elements in ascending tag
order, every value padded to an even length (UIDs with a NUL, text with a space). The pixel
data is uncompressed MONOCHROME2, 16 bits allocated and stored, unsigned. Kaggle's files carry
many more attributes (and the mammograms are JPEG 2000 compressed); readers such as pydicom
need only these.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from pathlib import Path

import numpy as np

EXPLICIT_VR_LITTLE_ENDIAN = "1.2.840.10008.1.2.1"
MR_IMAGE_STORAGE = "1.2.840.10008.5.1.4.1.1.4"
MAMMOGRAPHY_FOR_PRESENTATION = "1.2.840.10008.5.1.4.1.1.1.2"
IMPLEMENTATION_CLASS_UID = "2.25.107245386927519238441371893846327716821"
"""A fixed UUID-derived UID naming this writer."""

Tag = tuple[int, int]
Value = str | int | bytes
_LONG = {"OB", "OW", "OF", "SQ", "UT", "UN"}
"""VRs whose length is 4 bytes, after 2 reserved ones."""
_TEXT = {"AE", "AS", "CS", "DA", "DS", "DT", "IS", "LO", "LT", "PN", "SH", "ST", "TM", "UT"}


def uid(rng: np.random.Generator) -> str:
    """A random UID under the UUID root ``2.25`` (at most 64 characters)."""
    return "2.25." + str(int.from_bytes(rng.bytes(16), "little"))


def _value_bytes(vr: str, value: Value) -> bytes:
    if vr == "US":
        return struct.pack("<H", value)
    if vr == "UL":
        return struct.pack("<I", value)
    if isinstance(value, bytes):
        raw = value
    else:
        raw = str(value).encode("ascii")
        if vr not in _TEXT and vr != "UI":
            raise ValueError(f"unsupported VR {vr}")
    if len(raw) % 2:
        raw += b"\x00" if vr in ("UI", "OB") else b" "
    return raw


def _element(tag: Tag, vr: str, value: Value) -> bytes:
    data = _value_bytes(vr, value)
    head = struct.pack("<HH", *tag) + vr.encode("ascii")
    if vr in _LONG:
        return head + b"\x00\x00" + struct.pack("<I", len(data)) + data
    return head + struct.pack("<H", len(data)) + data


def write_dicom(
    path: Path,
    pixels: np.ndarray,
    sop_class_uid: str,
    sop_instance_uid: str,
    elements: Mapping[Tag, tuple[str, Value]],
) -> None:
    """Write ``pixels`` (2-D, values 0-65535) with the given data-set ``elements``
    (``{(group, element): (VR, value)}``; multi-valued text joined with ``\\``)."""
    if pixels.ndim != 2:
        raise ValueError(f"pixels must be 2-D, got shape {pixels.shape}")
    rows, columns = pixels.shape
    meta = b"".join(
        [
            _element((0x0002, 0x0001), "OB", b"\x00\x01"),
            _element((0x0002, 0x0002), "UI", sop_class_uid),
            _element((0x0002, 0x0003), "UI", sop_instance_uid),
            _element((0x0002, 0x0010), "UI", EXPLICIT_VR_LITTLE_ENDIAN),
            _element((0x0002, 0x0012), "UI", IMPLEMENTATION_CLASS_UID),
        ]
    )
    data: dict[Tag, tuple[str, Value]] = {
        **elements,
        (0x0008, 0x0016): ("UI", sop_class_uid),
        (0x0008, 0x0018): ("UI", sop_instance_uid),
        (0x0028, 0x0002): ("US", 1),
        (0x0028, 0x0004): ("CS", "MONOCHROME2"),
        (0x0028, 0x0010): ("US", rows),
        (0x0028, 0x0011): ("US", columns),
        (0x0028, 0x0100): ("US", 16),
        (0x0028, 0x0101): ("US", 16),
        (0x0028, 0x0102): ("US", 15),
        (0x0028, 0x0103): ("US", 0),
        (0x7FE0, 0x0010): ("OW", np.ascontiguousarray(pixels, dtype="<u2").tobytes()),
    }
    body = b"".join(_element(tag, *data[tag]) for tag in sorted(data))
    with open(path, "wb") as f:
        f.write(b"\x00" * 128 + b"DICM")
        f.write(_element((0x0002, 0x0000), "UL", len(meta)) + meta)
        f.write(body)
