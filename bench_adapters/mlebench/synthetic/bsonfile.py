"""Encoding BSON documents (as in Kaggle's ``.bson`` dumps) without a BSON library.

A document is its total length (int32), its elements and a NUL; an element is a type byte,
its name as a C string and its value. Integers are written as int32 when they fit and int64
otherwise (as pymongo does), ``bytes`` as binary of subtype 0, lists as arrays (documents
keyed "0", "1", ...), dicts as embedded documents and ``str`` as UTF-8 strings. Key order is
the dict's order. A ``.bson`` file is documents one after another.
"""

from __future__ import annotations

import struct
from typing import Any

_INT32 = range(-(2**31), 2**31)


def _cstring(name: str) -> bytes:
    raw = name.encode("utf-8")
    if b"\x00" in raw:
        raise ValueError(f"BSON names cannot hold NUL: {name!r}")
    return raw + b"\x00"


def _element(name: str, value: Any) -> bytes:
    key = _cstring(name)
    if isinstance(value, bool):
        return b"\x08" + key + (b"\x01" if value else b"\x00")
    if isinstance(value, int):
        if value in _INT32:
            return b"\x10" + key + struct.pack("<i", value)
        return b"\x12" + key + struct.pack("<q", value)
    if isinstance(value, float):
        return b"\x01" + key + struct.pack("<d", value)
    if isinstance(value, bytes):
        return b"\x05" + key + struct.pack("<i", len(value)) + b"\x00" + value
    if isinstance(value, str):
        raw = value.encode("utf-8") + b"\x00"
        return b"\x02" + key + struct.pack("<i", len(raw)) + raw
    if isinstance(value, dict):
        return b"\x03" + key + encode(value)
    if isinstance(value, list):
        return b"\x04" + key + encode({str(i): item for i, item in enumerate(value)})
    raise TypeError(f"cannot encode {type(value).__name__} as BSON")


def encode(document: dict[str, Any]) -> bytes:
    """One BSON document."""
    body = b"".join(_element(name, value) for name, value in document.items())
    return struct.pack("<i", len(body) + 5) + body + b"\x00"
