"""The submission contract: a git repository with ``reproduce.sh`` and a README, committed
files under 1 GB. A format check only: it never runs the code and never scores.

What counts is what is committed, ``HEAD``'s tree: the final snapshot (a ``git bundle``) holds
only that. The files and their real sizes are read from git's object files (``gitobjects``);
the index is read only to say that a missing file is staged but not committed.

The check reads the agent's folder in place, so it never follows a link and never runs a
program there: every file is opened relative to its parent folder's descriptor with
``O_NOFOLLOW`` (a link anywhere on the way is refused, even one swapped in during the check),
FIFOs and devices are refused unread, and ``git`` itself is not run (a repository's own
config can make git run commands).
"""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from bench_adapters.paperbench.gitobjects import TreeFile, committed_files
from bench_adapters.paperbench.gitpack import READ_FLAGS, GitObjectError, open_dir

MAX_COMMITTED_BYTES = 10**9
"""Upstream's limit on the committed files: 1 GB."""
MAX_METADATA_BYTES = 64 * 2**20
"""Largest ``.git/index`` (or ref file) read whole; a real index of a hundred thousand files
is ~10 MB. The index only names staged files for a hint, so a larger one is skipped."""
VALID = "Submission is valid"
INVALID = "Submission invalid!"


class ContractError(Exception):
    """The folder breaks the contract; the message says how, for the agent."""


@dataclass(frozen=True)
class IndexEntry:
    path: str
    mode: int
    size: int


def _read(name: str, dir_fd: int, limit: int = MAX_METADATA_BYTES) -> bytes:
    """The bytes of the regular file ``name`` in ``dir_fd``; OSError for anything else."""
    fd = os.open(name, READ_FLAGS, dir_fd=dir_fd)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(f"{name} is not a regular file")
        if st.st_size > limit:
            raise OSError(f"{name} is larger than {limit} bytes")
        chunks, left = [], st.st_size
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 24))):
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _read_path(relpath: str, dir_fd: int) -> bytes:
    """A file below ``dir_fd`` by a ``/``-separated path, every component opened without
    following links."""
    *parents, name = relpath.split("/")
    if not parents:
        return _read(name, dir_fd)
    with open_dir(parents[0], dir_fd) as sub:
        return _read_path("/".join([*parents[1:], name]), sub)


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    """git's offset varint (index v4 path prefix lengths)."""
    byte = data[pos]
    value, pos = byte & 0x7F, pos + 1
    while byte & 0x80:
        byte = data[pos]
        value, pos = ((value + 1) << 7) | (byte & 0x7F), pos + 1
    return value, pos


def parse_index(data: bytes, hash_size: int = 20) -> list[IndexEntry]:
    """The entries of a git index file (versions 2, 3 and 4): path, mode and size."""
    if len(data) < 12 or data[:4] != b"DIRC":
        raise ValueError("not a git index (no DIRC signature)")
    version = int.from_bytes(data[4:8], "big")
    count = int.from_bytes(data[8:12], "big")
    if version not in (2, 3, 4):
        raise ValueError(f"unsupported git index version {version}")
    entries, pos, previous = [], 12, b""
    for _ in range(count):
        start = pos
        mode = int.from_bytes(data[pos + 24 : pos + 28], "big")
        size = int.from_bytes(data[pos + 36 : pos + 40], "big")
        pos += 40 + hash_size
        flags = int.from_bytes(data[pos : pos + 2], "big")
        pos += 2
        if version >= 3 and flags & 0x4000:
            pos += 2  # extended flags
        if version == 4:
            strip, pos = _varint(data, pos)
            end = data.index(b"\0", pos)
            path = previous[: len(previous) - strip] + data[pos:end]
            pos = end + 1
        else:
            end = data.index(b"\0", pos)
            path = data[pos:end]
            pos = start + ((pos - start + len(path) + 8) & ~7)  # NUL-padded to 8 bytes
        if pos > len(data):
            raise ValueError("truncated git index")
        previous = path
        if (flags >> 12) & 0x3 == 0:  # stage 0: not a merge conflict's side
            entries.append(IndexEntry(path.decode("utf-8", "replace"), mode, size))
    return entries


def _head_commit(git_fd: int) -> str | None:
    """The commit ``HEAD`` points at, or None before the first commit."""
    head = _read("HEAD", git_fd).decode("utf-8", "replace").strip()
    if not head.startswith("ref: "):
        return head if len(head) in (40, 64) else None
    ref = head.removeprefix("ref: ").strip()
    with contextlib.suppress(OSError):
        value = _read_path(ref, git_fd).decode("utf-8", "replace").strip()
        if value:
            return value
    with contextlib.suppress(OSError):
        for line in _read("packed-refs", git_fd).decode("utf-8", "replace").splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[1] == ref:
                return parts[0]
    return None


def _hash_size(git_fd: int) -> int:
    with contextlib.suppress(OSError):
        config = _read("config", git_fd).decode("utf-8", "replace").lower()
        if "objectformat" in config and "sha256" in config:
            return 32
    return 20


@dataclass(frozen=True)
class Repository:
    """What the check reads: ``HEAD``'s commit (None before the first), its files, and the
    paths staged in the index (empty when the index cannot be read)."""

    commit: str | None
    committed: list[TreeFile]
    staged: frozenset[str]


def _staged(git_fd: int, hash_size: int) -> frozenset[str]:
    """The index's paths; only a hint for the message, so an unreadable index is empty."""
    try:
        return frozenset(e.path for e in parse_index(_read("index", git_fd), hash_size))
    except (OSError, ValueError):
        return frozenset()


def read_repository(folder: Path) -> Repository:
    """The repository at ``folder``; ``ContractError`` when it is not a git repository this
    check can read, or ``HEAD``'s files cannot be read."""
    try:
        with open_dir(str(folder)) as root, open_dir(".git", root) as git:
            commit, hash_size = _head_commit(git), _hash_size(git)
            files = committed_files(git, commit, hash_size) if commit else []
            return Repository(commit, files, _staged(git, hash_size))
    except FileNotFoundError:
        raise ContractError(
            f"{folder} is not a git repository: run `git init` there and commit your work"
        ) from None
    except NotADirectoryError:
        raise ContractError(f"{folder} or its .git is not a folder (or is a link)") from None
    except (OSError, ValueError, GitObjectError) as exc:
        raise ContractError(f"cannot read the git repository at {folder}: {exc}") from None


def _is_readme(path: str) -> bool:
    return "/" not in path and path.lower().startswith("readme")


def _missing(name: str, found: bool, staged: bool, what: str) -> str | None:
    """The problem with a required file at the root, or None when it is committed."""
    if found:
        return None
    if staged:
        return f"{name} is staged but not committed: git commit it"
    return what


def check_submission(folder: Path, max_bytes: int = MAX_COMMITTED_BYTES) -> tuple[bool, str]:
    """``(ok, message)`` for the submission folder; never raises, never scores."""
    folder = Path(folder)
    try:
        st = os.lstat(folder)
    except OSError:
        return False, f"{INVALID} There is no folder at {folder}."
    if not stat.S_ISDIR(st.st_mode):
        return False, f"{INVALID} {folder} is not a folder: the submission is a git repository."
    try:
        repo = read_repository(folder)
    except ContractError as exc:
        return False, f"{INVALID} {exc}."
    except Exception as exc:  # a hand-made repository: whatever it breaks is its fault
        why = f"{type(exc).__name__}: {exc}"[:300]
        return False, f"{INVALID} The git repository at {folder} could not be read ({why})."
    if repo.commit is None:
        return False, f"{INVALID} The repository has no commit yet: `git add` and `git commit`."
    names = {f.path for f in repo.committed}
    staged_readmes = sorted(n for n in repo.staged - names if _is_readme(n))
    problems = [
        _missing(
            "reproduce.sh",
            "reproduce.sh" in names,
            "reproduce.sh" in repo.staged,
            "reproduce.sh is not committed at the repository's root",
        ),
        _missing(
            staged_readmes[0] if staged_readmes else "README",
            any(map(_is_readme, names)),
            bool(staged_readmes),
            "no README (e.g. README.md) is committed at the repository's root",
        ),
    ]
    size = sum(f.size for f in repo.committed)
    if size >= max_bytes:
        problems.append(
            f"the committed files take {size / 1e9:.2f} GB, more than the 1 GB allowed "
            "(commit code, not data, checkpoints or outputs)"
        )
    found = [p for p in problems if p]
    if found:
        return False, f"{INVALID} " + "; ".join(found) + "."
    return True, (
        f"{VALID}: a git repository at commit {repo.commit[:12]} with {len(repo.committed)} "
        f"committed file(s), {size / 1e6:.1f} MB in all, reproduce.sh and a README."
    )
