"""Writing TFRecord files of ``tf.train.Example`` records without TensorFlow.

A TFRecord file is a run of records, each framed as: the payload length (uint64, little
endian), the masked CRC-32C of those 8 bytes (uint32), the payload, the masked CRC-32C of the
payload. An ``Example`` payload is the protocol-buffer message ``Example{Features{map<string,
Feature>}}`` where a ``Feature`` holds a ``BytesList`` (field 1) or an ``Int64List`` (field 3,
packed varints). TensorFlow's reader checks both CRCs, so they are computed exactly (CRC-32C,
Castagnoli polynomial, in pure Python: a few MB/s, plenty for synthetic images).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Mapping
from pathlib import Path

_POLY = 0x82F63B78  # CRC-32C (Castagnoli), reflected


def _table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ _POLY if crc & 1 else crc >> 1
        table.append(crc)
    return table


_TABLE = _table()


def crc32c(data: bytes) -> int:
    """CRC-32C of ``data`` (``crc32c(b"123456789") == 0xE3069283``)."""
    crc = 0xFFFFFFFF
    table = _TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data: bytes) -> int:
    """TFRecord's masked CRC: rotated right by 15 bits, plus a constant."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _varint(value: int) -> bytes:
    value &= 0xFFFFFFFFFFFFFFFF  # negative int64 as two's complement, as protobuf does
    out = bytearray()
    while True:
        bits = value & 0x7F
        value >>= 7
        if value:
            out.append(bits | 0x80)
        else:
            out.append(bits)
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited field (wire type 2)."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _feature(value: bytes | int) -> bytes:
    if isinstance(value, bytes):
        return _field(1, _field(1, value))  # BytesList{value: [value]}
    return _field(3, _field(1, _varint(value)))  # Int64List{value: [value]} (packed)


def example(features: Mapping[str, bytes | int]) -> bytes:
    """A serialized ``tf.train.Example`` with one value per feature (bytes or int64)."""
    entries = b"".join(
        _field(1, _field(1, key.encode()) + _field(2, _feature(value)))
        for key, value in features.items()
    )
    return _field(1, entries)


def write_tfrecord(path: Path, records: Iterable[bytes]) -> None:
    """Write serialized records into one TFRecord file."""
    with open(path, "wb") as f:
        for record in records:
            length = struct.pack("<Q", len(record))
            f.write(length + struct.pack("<I", masked_crc(length)))
            f.write(record + struct.pack("<I", masked_crc(record)))
