"""A commit's files and their sizes, read from a repository's object files without git.

The repository is the agent's, and its config can make git run commands, so git is not run:
objects are read as git stores them, loose (``objects/ab/cdef...``, zlib) or in packs
(``objects/pack/*.idx``, version 2, and their ``.pack``), deltas included, never through a
link (``gitpack``). Commits and trees are checked against their hashes, so a forged object
cannot make a tree loop; a blob's size comes from its header, the full 64-bit size (the index
keeps only 32 bits), without inflating the blob.

The repository may be built to make reading it expensive, so every cost is bounded from this
side: entries visited, the bytes of trees held, the length of a path and of the listing, the
bytes that deltas may build (summed from their headers before any is applied: a few hundred
bytes of deltas that each rebuild a large base would otherwise take hours), and the time of
the whole reading. The listing keeps one frame per folder level, so its memory grows with the
depth, never with the number of folders still to visit.

Not read (such a commit reads as having missing objects): alternates, replace refs, grafts.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass

from bench_adapters.paperbench.gitpack import (
    DIR_FLAGS,
    MAX_OBJECT_BYTES,
    MAX_PACKS,
    TYPES,
    GitObjectError,
    Pack,
    apply_delta,
    delta_result_size,
    inflate,
    open_dir,
    open_regular,
    reader,
)

MAX_DELTA_CHAIN = 10_000
MAX_FILES = 1_000_000
"""Files listed at most: a tree that names the same subtree many times (a "git bomb") ends
here, its subtrees read once each."""
MAX_TREE_DEPTH = 4096
"""git's own ``core.maxTreeDepth``."""
MAX_TREE_ENTRIES = 2_000_000
"""Tree entries visited at most, folders included: a handful of trees naming each other many
times over (fan-out 10, depth 12) would otherwise be walked for days without a single file."""
MAX_SECONDS = 60.0
"""Longest a reading of the repository (its commit, trees and deltas) may take; a repository
that needs longer is refused."""
MAX_PATH_CHARS = 4096
"""Longest committed path (Linux's ``PATH_MAX``: no checkout could hold a longer one)."""
MAX_LISTING_CHARS = 64 * 2**20
"""Characters of all listed paths together (a million files of 64 characters)."""
MAX_TREE_BYTES = MAX_OBJECT_BYTES
"""Bytes of distinct trees read and held while listing."""
MAX_DELTA_BYTES = 8 * MAX_OBJECT_BYTES
"""Bytes that deltas may build in all while the repository is read."""
_FILE_MODES = (0o100644, 0o100755, 0o120000)
"""Blobs in a tree: files, executables and links; trees and submodules are not files."""


@dataclass(frozen=True)
class TreeFile:
    path: str
    mode: int
    size: int


class ObjectStore:
    """The objects of the ``.git`` folder open at ``git_fd``; use as a context manager."""

    def __init__(self, git_fd: int, hash_size: int = 20) -> None:
        self.hash_size = hash_size
        self.hash = hashlib.sha1 if hash_size == 20 else hashlib.sha256
        self.deadline = time.monotonic() + MAX_SECONDS
        self.built = 0
        """Bytes that deltas were allowed to build so far (``MAX_DELTA_BYTES``)."""
        self.trees: dict[bytes, bytes] = {}
        self.tree_bytes = 0
        """Bytes of the trees in ``trees`` (``MAX_TREE_BYTES``)."""
        self.objects = os.open("objects", DIR_FLAGS, dir_fd=git_fd)
        self.packs: list[Pack] = []
        try:
            self._open_packs()
        except BaseException:
            self.__exit__()
            raise

    def _open_packs(self) -> None:
        try:
            pack_fd = os.open("pack", DIR_FLAGS, dir_fd=self.objects)
        except FileNotFoundError:
            return  # no pack folder: every object is loose
        try:
            for name in sorted(os.listdir(pack_fd)):
                if name.endswith(".idx"):
                    if len(self.packs) >= MAX_PACKS:
                        raise GitObjectError(f"more than {MAX_PACKS} packs: run `git gc`")
                    self.packs.append(Pack(pack_fd, name.removesuffix(".idx"), self.hash_size))
        finally:
            os.close(pack_fd)

    def __enter__(self) -> ObjectStore:
        return self

    def __exit__(self, *exc: object) -> None:
        for pack in self.packs:
            pack.close()
        os.close(self.objects)

    def _borrowed(self) -> str:
        """A hint when the repository borrows objects from another one."""
        try:
            os.stat("info/alternates", dir_fd=self.objects, follow_symlinks=False)
        except OSError:
            return ""
        return " (objects/info/alternates is not read: `git repack -a -d` copies them in)"

    def _locate(self, oid: bytes) -> tuple[Pack, int] | None:
        for pack in self.packs:
            if (offset := pack.find(oid)) is not None:
                return pack, offset
        return None

    def _loose(self, oid: bytes, want: int | None) -> tuple[str, int, bytes]:
        """``(type, size, data)`` of a loose object: its data in full, or none of it when
        ``want`` is 0."""
        hexid = oid.hex()
        try:
            with open_dir(hexid[:2], self.objects) as folder:
                fd = open_regular(hexid[2:], folder)
        except FileNotFoundError:
            raise GitObjectError(f"object {hexid[:12]} not found{self._borrowed()}") from None
        except OSError as exc:
            raise GitObjectError(f"object {hexid[:12]}: {exc}") from None
        try:
            head = inflate(reader(fd), 0, 64)
            start = head.index(b"\0") + 1
            kind_bytes, _, size_text = head[: start - 1].partition(b" ")
            kind, size = kind_bytes.decode("ascii"), int(size_text)
            if kind not in TYPES.values():
                raise ValueError(kind)
            if want == 0:
                return kind, size, b""
            if size > MAX_OBJECT_BYTES:
                raise GitObjectError(f"object {hexid[:12]} is too large to read")
            data = inflate(reader(fd), 0, start + size)[start:]
        except (ValueError, UnicodeDecodeError):
            raise GitObjectError(f"object {hexid[:12]} has no valid header") from None
        finally:
            os.close(fd)
        return kind, size, data

    def in_time(self) -> None:
        """GitObjectError once the reading has taken ``MAX_SECONDS``."""
        if time.monotonic() > self.deadline:
            raise GitObjectError(f"reading the repository took more than {MAX_SECONDS:.0f}s")

    def _charge(self, deltas: list[bytes]) -> None:
        """Count what ``deltas`` will build, before their base is read or any is applied."""
        self.built += sum(map(delta_result_size, deltas))
        if self.built > MAX_DELTA_BYTES:
            raise GitObjectError(
                f"its deltas would build more than {MAX_DELTA_BYTES} bytes (a delta chain "
                "that rebuilds a large object over and over): run `git gc`"
            )

    def _packed(self, pack: Pack, offset: int) -> tuple[str, bytes]:
        """The object at ``offset`` in ``pack``, its delta chain resolved."""
        deltas: list[bytes] = []
        while True:
            self.in_time()
            kind, size, start, base = pack.entry(offset)
            if size > MAX_OBJECT_BYTES:
                raise GitObjectError(f"pack entry at {offset} is too large to read")
            if kind in TYPES:
                self._charge(deltas)
                name, data = TYPES[kind], inflate(pack.read, start, size)
                break
            deltas.append(inflate(pack.read, start, size))
            if len(deltas) > MAX_DELTA_CHAIN or sum(map(len, deltas)) > MAX_OBJECT_BYTES:
                raise GitObjectError("delta chain too long")
            if isinstance(base, int):
                offset = base
                continue
            assert isinstance(base, bytes)
            found = self._locate(base)
            if found is None:
                self._charge(deltas)
                name, _, data = self._loose(base, None)
                break
            pack, offset = found
        for delta in reversed(deltas):
            self.in_time()
            data = apply_delta(data, delta)
        return name, data

    def read(self, oid: bytes) -> tuple[str, bytes]:
        """``(type, data)`` of a commit, tree or tag, checked against its hash."""
        found = self._locate(oid)
        if found is None:
            kind, _, data = self._loose(oid, None)
        else:
            kind, data = self._packed(*found)
        if self.hash(f"{kind} {len(data)}\0".encode() + data).digest() != oid:
            raise GitObjectError(f"object {oid.hex()[:12]} does not match its hash")
        return kind, data

    def size(self, oid: bytes) -> int:
        """A blob's size, from its header (a delta's header gives the result's size)."""
        found = self._locate(oid)
        if found is None:
            return self._loose(oid, 0)[1]
        pack, offset = found
        kind, size, start, _ = pack.entry(offset)
        if kind in TYPES:
            return size
        try:
            return delta_result_size(inflate(pack.read, start, 20))
        except GitObjectError:
            raise GitObjectError(f"truncated delta at {offset}") from None

    def tree_of(self, commit: bytes) -> bytes:
        kind, data = self.read(commit)
        if kind != "commit" or not data.startswith(b"tree "):
            raise GitObjectError(f"{commit.hex()[:12]} is not a commit")
        return bytes.fromhex(data[5 : data.index(b"\n")].decode("ascii"))

    def _tree(self, oid: bytes) -> bytes:
        """A tree's data, read once and kept (a tree bomb names the same trees many times)."""
        if oid not in self.trees:
            kind, data = self.read(oid)
            if kind != "tree":
                raise GitObjectError(f"{oid.hex()[:12]} is not a tree")
            self.tree_bytes += len(data)
            if self.tree_bytes > MAX_TREE_BYTES:
                raise GitObjectError(f"the commit's trees take more than {MAX_TREE_BYTES} bytes")
            self.trees[oid] = data
        return self.trees[oid]

    def files(self, tree: bytes) -> Iterator[TreeFile]:
        """Every file (blob) below ``tree``, with its path and size; GitObjectError past
        ``MAX_TREE_ENTRIES`` entries visited, a path of ``MAX_PATH_CHARS``, a listing of
        ``MAX_LISTING_CHARS``, ``MAX_TREE_BYTES`` of trees, or ``MAX_SECONDS``."""
        sizes: dict[bytes, int] = {}
        frames = [(self._tree(tree), 0, "")]  # (tree, next entry, its path) per level
        listed = visited = chars = 0
        while frames:
            data, pos, prefix = frames[-1]
            if pos >= len(data):
                frames.pop()
                continue
            visited += 1
            if visited > MAX_TREE_ENTRIES:
                raise GitObjectError(
                    f"the commit's tree has more than {MAX_TREE_ENTRIES} entries (files "
                    "and folders, repeats counted)"
                )
            if visited % 1024 == 0:
                self.in_time()
            space, nul = data.index(b" ", pos), data.index(b"\0", pos)
            if len(prefix) + nul - space - 1 > MAX_PATH_CHARS:
                raise GitObjectError(f"a committed path is longer than {MAX_PATH_CHARS} characters")
            mode = int(data[pos:space], 8)
            name = data[space + 1 : nul].decode("utf-8", "replace")
            child = data[nul + 1 : nul + 1 + self.hash_size]
            frames[-1] = (data, nul + 1 + self.hash_size, prefix)
            if mode == 0o040000:
                if len(frames) > MAX_TREE_DEPTH:
                    raise GitObjectError("tree nested too deep")
                frames.append((self._tree(child), 0, f"{prefix}{name}/"))
            elif mode in _FILE_MODES:
                listed, chars = listed + 1, chars + len(prefix) + len(name)
                if listed > MAX_FILES:
                    raise GitObjectError(f"more than {MAX_FILES} files are committed")
                if chars > MAX_LISTING_CHARS:
                    raise GitObjectError(
                        f"the committed paths take more than {MAX_LISTING_CHARS} characters"
                    )
                if child not in sizes:
                    sizes[child] = self.size(child)
                yield TreeFile(f"{prefix}{name}", mode, sizes[child])


def committed_files(git_fd: int, commit: str, hash_size: int = 20) -> list[TreeFile]:
    """The files of ``commit`` (hex), read from the ``.git`` folder open at ``git_fd``;
    ``GitObjectError`` (or OSError) when an object cannot be read."""
    with ObjectStore(git_fd, hash_size) as store:
        try:
            return list(store.files(store.tree_of(bytes.fromhex(commit))))
        except (ValueError, IndexError):
            raise GitObjectError(f"malformed commit or tree below {commit[:12]}") from None
