"""Writing minimal, valid DICOM files (Part 10) of one 16-bit greyscale image, without a
DICOM library.

A file is a 128-byte preamble, ``DICM``, the file meta group (0002) and the data set, all in
Explicit VR Little Endian (transfer syntax 1.2.840.10008.1.2.1), elements in ascending tag
order, every value padded to an even length (UIDs with a NUL, text with a space). The pixel
data is MONOCHROME2, 16 bits allocated and stored, unsigned: uncompressed, or (``compressed``)
encapsulated RLE Lossless (transfer syntax 1.2.840.10008.1.2.5, PS3.5 annex G: the high and
the low bytes as two segments, each row PackBits-coded on its own), so that a reader meets a
compressed file as it does in Kaggle's data (whose mammograms are JPEG 2000 or JPEG lossless,
which need an encoder this writer does not have). Kaggle's files carry many more
attributes; readers such as pydicom need only these.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from pathlib import Path

import numpy as np

EXPLICIT_VR_LITTLE_ENDIAN = "1.2.840.10008.1.2.1"
RLE_LOSSLESS = "1.2.840.10008.1.2.5"
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


def packbits(row: bytes) -> bytes:
    """One row in PackBits: a run of 2-128 equal bytes as ``257 - n`` and the byte, anything
    else as ``n - 1`` and its ``n`` (1-128) bytes."""
    out, i = bytearray(), 0
    while i < len(row):
        run = 1
        while i + run < len(row) and run < 128 and row[i + run] == row[i]:
            run += 1
        if run > 1:
            out += bytes([257 - run, row[i]])
            i += run
            continue
        start = i
        while i < len(row) and i - start < 128 and (i + 1 >= len(row) or row[i + 1] != row[i]):
            i += 1
        out += bytes([i - start - 1]) + row[start:i]
    return bytes(out)


def rle_pixel_data(pixels: np.ndarray) -> bytes:
    """The encapsulated pixel data element (undefined length) holding one RLE frame."""
    planes = [pixels >> 8, pixels & 0xFF]  # most significant bytes first
    segments = []
    for plane in planes:
        coded = b"".join(packbits(row.astype(np.uint8).tobytes()) for row in plane)
        segments.append(coded + b"\x00" * (len(coded) % 2))
    offsets = [64, 64 + len(segments[0])]
    frame = struct.pack("<16I", len(segments), *offsets, *[0] * 13) + b"".join(segments)

    def item(data: bytes) -> bytes:
        return struct.pack("<HHI", 0xFFFE, 0xE000, len(data)) + data

    head = struct.pack("<HH", 0x7FE0, 0x0010) + b"OB\x00\x00" + struct.pack("<I", 0xFFFFFFFF)
    return head + item(b"") + item(frame) + struct.pack("<HHI", 0xFFFE, 0xE0DD, 0)


def write_dicom(
    path: Path,
    pixels: np.ndarray,
    sop_class_uid: str,
    sop_instance_uid: str,
    elements: Mapping[Tag, tuple[str, Value]],
    compressed: bool = False,
) -> None:
    """Write ``pixels`` (2-D, values 0-65535) with the given data-set ``elements``
    (``{(group, element): (VR, value)}``; multi-valued text joined with ``\\``), RLE
    Lossless when ``compressed``."""
    if pixels.ndim != 2:
        raise ValueError(f"pixels must be 2-D, got shape {pixels.shape}")
    rows, columns = pixels.shape
    meta = b"".join(
        [
            _element((0x0002, 0x0001), "OB", b"\x00\x01"),
            _element((0x0002, 0x0002), "UI", sop_class_uid),
            _element((0x0002, 0x0003), "UI", sop_instance_uid),
            _element(
                (0x0002, 0x0010), "UI", RLE_LOSSLESS if compressed else EXPLICIT_VR_LITTLE_ENDIAN
            ),
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
    }
    body = b"".join(_element(tag, *data[tag]) for tag in sorted(data))
    pixels = np.ascontiguousarray(pixels, dtype="<u2")
    body += (
        rle_pixel_data(pixels) if compressed else _element((0x7FE0, 0x0010), "OW", pixels.tobytes())
    )
    with open(path, "wb") as f:
        f.write(b"\x00" * 128 + b"DICM")
        f.write(_element((0x0002, 0x0000), "UL", len(meta)) + meta)
        f.write(body)
