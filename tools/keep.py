"""Taking what the agent left: a copy that never follows a link and never trusts a size.

At the end of a run the harness (root) keeps the agent's ``submission/`` and ``code/`` beside
the record, and PaperBench copies a submission before reproducing it. Everything there was
written by a program that may be trying to win, so ``keep_tree``:

- starts from a directory descriptor and opens every level with ``O_NOFOLLOW``: a link is
  never followed, not even one swapped in while the copy runs;
- copies regular files and folders only. Links, FIFOs, sockets and devices are recorded as
  skipped and never opened; a file is opened ``O_NONBLOCK`` and checked with ``fstat`` on
  that descriptor, so a FIFO swapped in cannot block it;
- given the agent's uid, skips a file with other names (``st_nlink > 1``) that the agent does
  not own: a hard link to someone else's file, the private answers say, that the kernel let
  it make (``fs.protected_hardlinks`` off). The harness's own files there have one name;
- is bounded (``KeepLimits``): folder depth, entries, bytes per file and in all. What is over
  a limit is skipped and recorded, never cut short (a truncated CSV would grade as something
  the agent never wrote);
- keeps sparse files sparse: holes are neither read nor written;
- normalises modes on the harness's copy: files 0644 (0755 when the owner could execute),
  folders 0755, owned by the harness. No setuid, setgid or sticky bit; nothing group- or
  other-writable.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_CHUNK = 1 << 20
_LISTED_SKIPS = 50
"""Skipped entries named in the report; the rest are counted."""
GiB = 2**30


@dataclass(frozen=True)
class KeepLimits:
    """What one ``keep_tree`` copies at most."""

    max_file_bytes: int = 4 * GiB
    """A file larger than this (its apparent size, holes included) is skipped."""
    max_total_bytes: int = 8 * GiB
    """Once this much is kept, further files are skipped."""
    max_entries: int = 20_000
    """Files and folders visited; the walk stops there."""
    max_depth: int = 32
    """Folders nested deeper than this are skipped."""


SUBMISSION_LIMITS = KeepLimits()
CODE_LIMITS = KeepLimits(max_file_bytes=256 * 2**20, max_total_bytes=1 * GiB)


@dataclass
class KeepReport:
    """What ``keep_tree`` copied and what it left behind, for the run record."""

    files: int = 0
    folders: int = 0
    links: int = 0
    """Links copied as links (only when asked for)."""
    bytes: int = 0
    skipped: list[str] = field(default_factory=list)
    """``relative/path: reason``, the first ``_LISTED_SKIPS`` of them."""
    skipped_count: int = 0
    stopped: str | None = None
    """Why the walk ended early, if it did."""

    def skip(self, rel: str, reason: str) -> None:
        self.skipped_count += 1
        if len(self.skipped) < _LISTED_SKIPS:
            shown = rel.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
            self.skipped.append(f"{shown[:300]}: {reason}")

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


class _Stop(Exception):
    """The walk reached ``max_entries``."""


def keep_tree(
    parent: Path,
    name: str,
    dest: Path,
    limits: KeepLimits = SUBMISSION_LIMITS,
    links: bool = False,
    exclude: frozenset[str] = frozenset(),
    agent_uid: int | None = None,
) -> KeepReport:
    """Copy the folder ``parent/name`` into a new folder ``dest`` (replaced if it exists).

    ``parent`` and ``dest``'s parent must be the harness's: the agent may own ``name`` and
    everything below it, never the path above. A missing ``name``, or anything but a real
    folder there, gives an empty ``dest`` and a report that says so. ``links``: links are
    copied as links (their target text, never followed), for a repository whose links are
    part of it; otherwise they are skipped. ``exclude``: names at the top level left out.
    ``agent_uid``: the agent's user, whose hard links to files it does not own are skipped
    (None: isolation is off, the agent is the harness's user).
    Never raises for what the agent left; an OSError means the harness's own side failed
    (disk full, say).
    """
    report = KeepReport()
    if dest.is_dir() and not dest.is_symlink():
        shutil.rmtree(dest)  # a copy kept by an earlier end of this run (resumed since)
    elif dest.exists() or dest.is_symlink():
        dest.unlink()
    dest.mkdir(mode=0o755)
    os.chmod(dest, 0o755)
    parent_fd = os.open(parent, _DIR)
    try:
        try:
            src = os.open(name, _DIR, dir_fd=parent_fd)
        except OSError as exc:
            report.skip(name, _why_not_folder(exc))
            return report
    finally:
        os.close(parent_fd)
    dst = os.open(dest, _DIR)
    try:
        _walk(src, dst, report, limits, links, exclude, agent_uid)
    except _Stop:
        report.stopped = f"more than {limits.max_entries} entries; the rest was not kept"
    finally:
        os.close(src)
        os.close(dst)
    return report


def _why_not_folder(exc: OSError) -> str:
    if exc.errno == errno.ENOENT:
        return "missing"
    if exc.errno in (errno.ELOOP, errno.ENOTDIR):
        return "not a folder (a link or a file): not kept"
    return exc.strerror or str(exc)


def _entries(fd: int) -> Iterator[str]:
    with os.scandir(fd) as it:
        for entry in it:
            yield entry.name


def _walk(
    src: int,
    dst: int,
    report: KeepReport,
    limits: KeepLimits,
    links: bool,
    exclude: frozenset[str],
    agent_uid: int | None,
) -> None:
    """Copy the folder open at ``src`` into the one open at ``dst``, depth first, without
    recursion (so no depth the agent chooses can exhaust the stack)."""
    stack: list[tuple[int, int, str, Iterator[str]]] = [(src, dst, "", _entries(src))]
    seen = 0
    try:
        while stack:
            s_fd, d_fd, rel, names = stack[-1]
            name = next(names, None)
            if name is None:
                stack.pop()
                if len(stack) > 0:  # the root's descriptors belong to the caller
                    os.close(s_fd)
                    os.close(d_fd)
                continue
            if not rel and name in exclude:
                continue
            seen += 1
            if seen > limits.max_entries:
                raise _Stop
            path = f"{rel}{name}"
            try:
                st = os.stat(name, dir_fd=s_fd, follow_symlinks=False)
            except FileNotFoundError:
                continue
            if stat.S_ISDIR(st.st_mode):
                if len(stack) > limits.max_depth:
                    report.skip(path + "/", f"deeper than {limits.max_depth} folders")
                    continue
                opened = _open_folder(s_fd, d_fd, name, path, report)
                if opened is not None:
                    report.folders += 1
                    stack.append((*opened, path + "/", _entries(opened[0])))
            elif stat.S_ISREG(st.st_mode):
                _keep_file(s_fd, d_fd, name, path, report, limits, agent_uid)
            elif links and stat.S_ISLNK(st.st_mode):
                os.symlink(os.readlink(name, dir_fd=s_fd), name, dir_fd=d_fd)
                report.links += 1
            else:
                report.skip(path, f"a {_kind(st.st_mode)}: not copied")
    finally:
        for s_fd, d_fd, _, _ in stack[1:]:
            os.close(s_fd)
            os.close(d_fd)


def _open_folder(
    s_fd: int, d_fd: int, name: str, path: str, report: KeepReport
) -> tuple[int, int] | None:
    try:
        child = os.open(name, _DIR, dir_fd=s_fd)
    except OSError as exc:
        report.skip(path + "/", _why_not_folder(exc))
        return None
    try:
        os.mkdir(name, 0o755, dir_fd=d_fd)
        made = os.open(name, _DIR, dir_fd=d_fd)
        os.fchmod(made, 0o755)
    except BaseException:
        os.close(child)
        raise
    return child, made


def _keep_file(
    s_fd: int,
    d_fd: int,
    name: str,
    path: str,
    report: KeepReport,
    limits: KeepLimits,
    agent_uid: int | None,
) -> None:
    try:
        fd = os.open(name, _FILE, dir_fd=s_fd)
    except OSError as exc:
        why = "became a link: not followed" if exc.errno == errno.ELOOP else exc.strerror
        report.skip(path, why or str(exc))
        return
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            report.skip(path, f"a {_kind(st.st_mode)}: not copied")
            return
        if agent_uid is not None and st.st_nlink > 1 and st.st_uid != agent_uid:
            report.skip(
                path, f"a hard link to a file of uid {st.st_uid}, not the agent's: not copied"
            )
            return
        if st.st_size > limits.max_file_bytes:
            report.skip(path, f"{st.st_size} bytes, over the {limits.max_file_bytes}-byte limit")
            return
        if report.bytes + st.st_size > limits.max_total_bytes:
            report.skip(path, f"the {limits.max_total_bytes}-byte limit in all was reached")
            return
        mode = 0o755 if st.st_mode & stat.S_IXUSR else 0o644
        out = os.open(name, _NEW, mode, dir_fd=d_fd)
        try:
            os.fchmod(out, mode)
            _copy_sparse(fd, out, st.st_size)
        finally:
            os.close(out)
        report.files += 1
        report.bytes += st.st_size
    finally:
        os.close(fd)


def _copy_sparse(src: int, dst: int, size: int) -> None:
    """Copy ``size`` bytes, writing only the data regions (holes stay holes)."""
    pos = 0
    while pos < size:
        try:
            start = os.lseek(src, pos, os.SEEK_DATA)
            end = min(size, os.lseek(src, start, os.SEEK_HOLE))
        except OSError as exc:
            if exc.errno == errno.ENXIO:
                break  # only a hole is left
            start, end = pos, size  # the file system cannot tell: copy it all
        if start >= size:
            break
        while start < end:
            data = os.pread(src, min(_CHUNK, end - start), start)
            if not data:
                end = start  # the file shrank under us: keep what there was
                break
            os.pwrite(dst, data, start)
            start += len(data)
        pos = max(end, pos + 1)
    os.ftruncate(dst, size)


class NotTaken(Exception):
    """A single file was not copied or read; the message says why, in words for the model or
    the user."""


def read_regular_file(path: Path, max_bytes: int) -> bytes:
    """The bytes of the regular file ``path``, opened by descriptor without following a link
    at its last component (the folders above are the caller's choice, a user's or the
    harness's); NotTaken for a link, anything but a regular file, or a file over
    ``max_bytes``; OSError when it cannot be opened."""
    try:
        fd = os.open(path, _FILE)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotTaken(f"{path} is a link; links are not followed") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotTaken(f"{path} is a {_kind(st.st_mode)}, not a regular file")
        if st.st_size > max_bytes:
            raise NotTaken(f"{path} is {st.st_size} bytes, over the {max_bytes}-byte limit")
        chunks, left = [], st.st_size
        while left > 0 and (chunk := os.read(fd, min(left, _CHUNK))):
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def copy_open_file(fd: int, dest: Path, max_bytes: int, owner: int | None = None) -> int:
    """Copy the file open at ``fd`` (opened ``O_NOFOLLOW | O_NONBLOCK`` by the caller) to
    ``dest``, a harness path (replaced, mode 0644), keeping holes; return its size. NotTaken
    when it is not a regular file, is over ``max_bytes``, or (``owner`` given) belongs to
    another user (a hard link to someone else's file is not the agent's work)."""
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        raise NotTaken(f"it is a {_kind(st.st_mode)}, not a regular file")
    if owner is not None and st.st_uid != owner:
        raise NotTaken("it was not written by the agent's code")
    if st.st_size > max_bytes:
        raise NotTaken(f"it is {st.st_size} bytes, over the {max_bytes}-byte limit")
    dest.unlink(missing_ok=True)
    out = os.open(dest, _NEW, 0o644)
    try:
        os.fchmod(out, 0o644)
        _copy_sparse(fd, out, st.st_size)
    finally:
        os.close(out)
    return st.st_size


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "symbolic link"
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    return "special file"
