"""git's storage formats below the object store: safe opens, zlib streams, deltas, packs.

Every file is opened relative to its folder's descriptor with ``O_NOFOLLOW`` and must be a
regular file. A pack index (version 2) is loaded; its ``.pack`` is read with ``pread``, a piece
at a time, never loaded whole, and so is its index. ``gitobjects`` builds a commit's file
listing on these.
"""

from __future__ import annotations

import contextlib
import os
import stat
import zlib
from collections.abc import Callable, Iterator

READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
DIR_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_DIRECTORY | os.O_CLOEXEC
MAX_OBJECT_BYTES = 256 * 2**20
"""Largest commit or tree (or delta) inflated."""
MAX_INDEX_BYTES = 256 * 2**20
"""Largest pack index opened (one of a million objects is ~28 MB); it is read by pieces."""
MAX_PACKS = 256
"""Packs a repository may have (``git gc`` keeps one or a few)."""
TYPES = {1: "commit", 2: "tree", 3: "blob", 4: "tag"}
OFS_DELTA, REF_DELTA = 6, 7
_CHUNK = 1 << 16

Read = Callable[[int, int], bytes]
"""``read(offset, n)``: up to ``n`` bytes of an open file from ``offset``."""


class GitObjectError(Exception):
    """An object is missing, unreadable or malformed; the message says which."""


@contextlib.contextmanager
def open_dir(path: str, dir_fd: int | None = None) -> Iterator[int]:
    """A folder opened without following a link, closed on leaving the block."""
    fd = os.open(path, DIR_FLAGS, dir_fd=dir_fd)
    try:
        yield fd
    finally:
        os.close(fd)


def open_regular(name: str, dir_fd: int) -> int:
    """A descriptor of the regular file ``name`` in ``dir_fd`` (never through a link)."""
    fd = os.open(name, READ_FLAGS, dir_fd=dir_fd)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(f"{name} is not a regular file")
    return fd


def reader(fd: int) -> Read:
    return lambda offset, n: os.pread(fd, n, offset)


def inflate(read: Read, offset: int, want: int) -> bytes:
    """The first ``want`` bytes (or fewer, at the stream's end) of the zlib stream at
    ``offset``; only as much input is read as that takes."""
    stream, out = zlib.decompressobj(), bytearray()
    try:
        while len(out) < want and not stream.eof:
            chunk = read(offset, _CHUNK)
            if not chunk:
                raise GitObjectError("truncated object")
            offset += len(chunk)
            out += stream.decompress(chunk, want - len(out))
            while stream.unconsumed_tail and len(out) < want:
                out += stream.decompress(stream.unconsumed_tail, want - len(out))
    except zlib.error as exc:
        raise GitObjectError(f"corrupt object data ({exc})") from None
    return bytes(out[:want])


def size_varint(data: bytes, pos: int) -> tuple[int, int]:
    """A delta's little-endian size varint."""
    value = shift = 0
    while True:
        byte = data[pos]
        value, shift, pos = value | (byte & 0x7F) << shift, shift + 7, pos + 1
        if not byte & 0x80:
            return value, pos


def delta_result_size(delta: bytes) -> int:
    """The size a delta says its result has (its second varint), read before applying it."""
    try:
        return size_varint(delta, size_varint(delta, 0)[1])[0]
    except IndexError:
        raise GitObjectError("truncated delta") from None


def apply_delta(base: bytes, delta: bytes) -> bytes:
    """git's delta format: base and result sizes, then copy-from-base and insert steps. The
    result's stated size is checked before any step and every step is checked against it and
    the base, so a delta can never build more than ``MAX_OBJECT_BYTES``."""
    try:
        source_size, pos = size_varint(delta, 0)
        size, pos = size_varint(delta, pos)
        if source_size != len(base) or size > MAX_OBJECT_BYTES:
            raise GitObjectError("delta does not fit its base")
        out = bytearray()
        while pos < len(delta):
            op, pos = delta[pos], pos + 1
            if op & 0x80:  # copy: offset and length, each byte present only when its bit is
                start = length = 0
                for i in range(7):
                    if op & (1 << i):
                        byte, pos = delta[pos], pos + 1
                        if i < 4:
                            start |= byte << (8 * i)
                        else:
                            length |= byte << (8 * (i - 4))
                length = length or 0x10000
                if start + length > len(base) or len(out) + length > size:
                    raise GitObjectError("delta copies past its base or its result")
                out += base[start : start + length]
            elif op:
                if len(out) + op > size:
                    raise GitObjectError("delta inserts past its result")
                out += delta[pos : pos + op]
                pos += op
            else:
                raise GitObjectError("delta has a reserved instruction")
    except IndexError:
        raise GitObjectError("truncated delta") from None
    if len(out) != size:
        raise GitObjectError("delta result has the wrong size")
    return bytes(out)


class Pack:
    """One ``.idx`` and its ``.pack``, both open and read by pieces (``pread``), never loaded
    whole: a sparse or huge index costs the harness no memory."""

    def __init__(self, pack_fd: int, name: str, hash_size: int) -> None:
        self.fd = self.idx_fd = -1
        self.idx_fd = open_regular(f"{name}.idx", pack_fd)
        try:
            length = os.fstat(self.idx_fd).st_size
            if length > MAX_INDEX_BYTES:
                raise GitObjectError(f"{name}.idx is larger than {MAX_INDEX_BYTES} bytes")
            head = os.pread(self.idx_fd, 1032, 0)
            if head[:8] != b"\xfftOc\x00\x00\x00\x02" or len(head) < 1032:
                raise GitObjectError(f"{name}.idx is not a version 2 pack index")
            self.fanout = head[8:1032]
            self.hash_size, self.count = hash_size, int.from_bytes(head[1028:1032], "big")
            self.oids = 1032
            self.offsets = self.oids + self.count * (hash_size + 4)
            self.large = self.offsets + self.count * 4
            if length < self.large + 2 * hash_size:
                raise GitObjectError(f"{name}.idx is truncated")
            self.fd = open_regular(f"{name}.pack", pack_fd)
        except BaseException:
            self.close()
            raise
        self.read = reader(self.fd)
        self._idx = reader(self.idx_fd)

    def close(self) -> None:
        for fd in (self.fd, self.idx_fd):
            if fd >= 0:
                os.close(fd)
        self.fd = self.idx_fd = -1

    def _number(self, at: int, width: int) -> int:
        data = self._idx(at, width)
        if len(data) != width:
            raise GitObjectError("pack index is truncated")
        return int.from_bytes(data, "big")

    def find(self, oid: bytes) -> int | None:
        """The offset of ``oid`` in the pack, or None."""
        lo = int.from_bytes(self.fanout[4 * oid[0] - 4 : 4 * oid[0]], "big") if oid[0] else 0
        hi = int.from_bytes(self.fanout[4 * oid[0] : 4 * oid[0] + 4], "big")
        if lo > hi or hi > self.count:
            raise GitObjectError("pack index has a bad fan-out table")
        size = self.hash_size
        while lo < hi:
            mid = (lo + hi) // 2
            seen = self._idx(self.oids + mid * size, size)
            if seen == oid:
                offset = self._number(self.offsets + 4 * mid, 4)
                if offset & 0x80000000:
                    offset = self._number(self.large + 8 * (offset & 0x7FFFFFFF), 8)
                return offset
            lo, hi = (mid + 1, hi) if seen < oid else (lo, mid)
        return None

    def entry(self, offset: int) -> tuple[int, int, int, int | bytes | None]:
        """``(type, size, data offset, base)`` of the entry at ``offset``; the base is an
        offset (offset delta), an object id (ref delta) or None."""
        head = self.read(offset, 32 + self.hash_size)
        try:
            byte = head[0]
            kind, size, shift, pos = (byte >> 4) & 7, byte & 0x0F, 4, 1
            while byte & 0x80:
                byte, pos = head[pos], pos + 1
                size, shift = size | (byte & 0x7F) << shift, shift + 7
            base: int | bytes | None = None
            if kind == OFS_DELTA:
                byte, pos = head[pos], pos + 1
                back = byte & 0x7F
                while byte & 0x80:
                    byte, pos = head[pos], pos + 1
                    back = ((back + 1) << 7) | (byte & 0x7F)
                base = offset - back
            elif kind == REF_DELTA:
                base, pos = head[pos : pos + self.hash_size], pos + self.hash_size
        except IndexError:
            raise GitObjectError(f"truncated pack entry at {offset}") from None
        if kind not in TYPES and kind not in (OFS_DELTA, REF_DELTA):
            raise GitObjectError(f"bad pack entry type {kind} at {offset}")
        return kind, size, offset + pos, base
