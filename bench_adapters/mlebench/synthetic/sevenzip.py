"""Writing ``.7z`` archives without a 7-Zip library: every file stored as is (the Copy method).

The archive is one signature header, the files' bytes one after another (a single folder
with the Copy coder, one substream per file, each with its CRC-32), then a plain (not
encoded) header naming the files. 7-Zip, p7zip and py7zr read it. Entries are files only;
readers create their folders from the names (``train/123.jpg``). Empty files are not
supported (no fixture writes one).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable
from pathlib import Path

SIGNATURE = b"7z\xbc\xaf\x27\x1c\x00\x04"
# Property ids of the 7z header.
K_END, K_HEADER, K_MAIN_STREAMS, K_FILES = 0x00, 0x01, 0x04, 0x05
K_PACK_INFO, K_UNPACK_INFO, K_SUBSTREAMS = 0x06, 0x07, 0x08
K_SIZE, K_CRC, K_FOLDER, K_UNPACK_SIZE, K_NUM_UNPACK = 0x09, 0x0A, 0x0B, 0x0C, 0x0D
K_NAME, K_ATTRIBUTES = 0x11, 0x15
ARCHIVE_ATTRIBUTE = 0x20


def number(value: int) -> bytes:
    """7z's variable-length integer: the first byte's leading ones count the bytes after it."""
    first, mask = 0, 0x80
    for extra in range(8):
        if value < 1 << (7 * (extra + 1)):
            first |= value >> (8 * extra)
            low = value & ((1 << (8 * extra)) - 1)
            return bytes([first]) + low.to_bytes(extra, "little")
        first |= mask
        mask >>= 1
    return bytes([0xFF]) + value.to_bytes(8, "little")


def _header(names: list[str], sizes: list[int], crcs: list[int]) -> bytes:
    total = sum(sizes)
    streams = (
        bytes([K_PACK_INFO])
        + number(0)  # the packed data starts right after the signature header
        + number(1)
        + bytes([K_SIZE])
        + number(total)
        + bytes([K_END])
        + bytes([K_UNPACK_INFO, K_FOLDER])
        + number(1)  # one folder
        + bytes([0])  # not external
        + number(1)  # one coder
        + bytes([0x01, 0x00])  # a simple coder with a 1-byte id: 0x00, Copy
        + bytes([K_UNPACK_SIZE])
        + number(total)
        + bytes([K_END])
        + bytes([K_SUBSTREAMS, K_NUM_UNPACK])
        + number(len(sizes))
        + bytes([K_SIZE])
        + b"".join(number(s) for s in sizes[:-1])
        + bytes([K_CRC, 1])  # all defined
        + b"".join(struct.pack("<I", c) for c in crcs)
        + bytes([K_END])  # substreams
        + bytes([K_END])  # main streams
    )
    encoded = b"".join(name.encode("utf-16-le") + b"\x00\x00" for name in names)
    attributes = b"".join(struct.pack("<I", ARCHIVE_ATTRIBUTE) for _ in names)
    files = (
        number(len(names))
        + bytes([K_NAME])
        + number(len(encoded) + 1)
        + bytes([0])
        + encoded
        + bytes([K_ATTRIBUTES])
        + number(len(attributes) + 2)
        + bytes([1, 0])  # all defined, not external
        + attributes
        + bytes([K_END])
    )
    return bytes([K_HEADER, K_MAIN_STREAMS]) + streams + bytes([K_FILES]) + files + bytes([K_END])


def write_7z(archive: Path, entries: Iterable[tuple[str, Path | bytes]]) -> None:
    """Write ``archive`` holding each ``(name, file or bytes)`` under ``name`` (``/``-separated)."""
    names: list[str] = []
    sizes: list[int] = []
    crcs: list[int] = []
    with open(archive, "wb") as out:
        out.write(b"\x00" * 32)  # the signature header, written last
        for name, source in entries:
            data = source if isinstance(source, bytes) else Path(source).read_bytes()
            if not data:
                raise ValueError(f"{name}: empty files are not supported")
            out.write(data)
            names.append(name)
            sizes.append(len(data))
            crcs.append(zlib.crc32(data))
        if not names:
            raise ValueError(f"{archive}: nothing to archive")
        header = _header(names, sizes, crcs)
        out.write(header)
        tail = struct.pack("<QQI", sum(sizes), len(header), zlib.crc32(header))
        out.seek(0)
        out.write(SIGNATURE + struct.pack("<I", zlib.crc32(tail)) + tail)
