"""Handing the agent its folders without following a link the agent may have planted.

The harness (root) gives ``submission/``, ``code/``, ``working/`` and ``.pydeps/`` to the agent
user each time a sandbox is made, a resumed run included. By then the agent may have replaced
one of them with a link (``mv submission old; ln -s /etc submission``): a ``chown`` that
follows it would hand a root folder to the agent. So every step goes through file descriptors
opened with ``O_NOFOLLOW``: a link is never followed, at the top or below, even if the agent
swaps a folder for a link while the walk runs (on the user-based sandbox a process it detached
may still run on resume). A link or file where one of these folders belongs is the agent's
doing: the link is removed (nothing is lost, its target is untouched), a file is renamed
aside, a fresh folder is made, and the repair is reported.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import stat
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

log = logging.getLogger(__name__)
_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_TRIES = 5
MAX_DEPTH = 200
"""Folders deeper than this are left as they are (each level holds one descriptor)."""


def give_folders(root: Path, paths: Sequence[str], uid: int, gid: int) -> list[str]:
    """Make each ``root/path`` (relative, e.g. ``.pydeps/lib``) a real folder, creating what
    is missing, and give its first component, with all it holds, to ``uid:gid``.

    ``root`` must be the harness's (the agent cannot rename it). Returns one line per repair
    (a link or a file found where a folder belongs); RuntimeError if a folder keeps changing.
    """
    repairs: list[str] = []
    with _opened(os.open(root, _DIR)) as root_fd:
        for path in paths:
            first, *rest = Path(path).parts
            with _opened(_folder(root_fd, first, root, repairs)) as top:
                _make_below(top, rest, root / first, repairs)
                _chown_tree(top, root / first, uid, gid)
    for line in repairs:
        log.warning("%s", line)
    return repairs


def _make_below(top: int, names: Sequence[str], where: Path, repairs: list[str]) -> None:
    """Make the folders ``names`` below ``top``, each reached through the one above it."""
    fd = top
    try:
        for name in names:
            child = _folder(fd, name, where, repairs)
            if fd != top:
                os.close(fd)
            fd, where = child, where / name
    finally:
        if fd != top:
            os.close(fd)


@contextmanager
def _opened(fd: int) -> Iterator[int]:
    try:
        yield fd
    finally:
        os.close(fd)


def _folder(parent: int, name: str, where: Path, repairs: list[str]) -> int:
    """A descriptor of the real folder ``name`` in ``parent``, made (or remade) if needed."""
    for _ in range(_TRIES):
        try:
            return os.open(name, _DIR, dir_fd=parent)
        except FileNotFoundError:
            with contextlib.suppress(FileExistsError):  # made meanwhile: open it next try
                os.mkdir(name, 0o755, dir_fd=parent)
        except OSError as exc:
            if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
                raise
            repairs.append(_set_aside(parent, name, where / name))
    raise RuntimeError(
        f"{where / name} kept changing while the harness prepared it; is an agent process "
        "still running?"
    )


def _set_aside(parent: int, name: str, path: Path) -> str:
    """Remove the link at ``name`` (or rename the file there); say what was done."""
    try:
        if stat.S_ISLNK(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode):
            target = os.readlink(name, dir_fd=parent)
            os.unlink(name, dir_fd=parent)
            return f"{path} was a link to {target}: removed the link, made an empty folder"
        aside = _free_name(parent, f"{name}.not-a-folder")
        os.rename(name, aside, src_dir_fd=parent, dst_dir_fd=parent)
        return f"{path} was not a folder: renamed it to {aside}, made an empty folder"
    except FileNotFoundError:
        return f"{path} changed while the harness looked at it"


def _free_name(parent: int, base: str) -> str:
    for k in range(1000):
        name = base if k == 0 else f"{base}.{k}"
        try:
            os.stat(name, dir_fd=parent, follow_symlinks=False)
        except FileNotFoundError:
            return name
    raise RuntimeError(f"no free name beside {base}")


def _chown_tree(top: int, path: Path, uid: int, gid: int) -> None:
    """Give the folder open at ``top`` and everything below it to ``uid:gid``, never through
    a link. A file another user owns that has other hard links is left alone: changing it
    would change its other names too (where ``fs.protected_hardlinks`` is off, the agent can
    link a root file into its folder)."""
    os.fchown(top, uid, gid)
    stack = [(top, path, iter(_entries(top)))]
    skipped: list[str] = []
    try:
        while stack:
            fd, where, entries = stack[-1]
            entry = next(entries, None)
            if entry is None:
                stack.pop()
                if fd != top:
                    os.close(fd)
                continue
            name, st = entry
            if stat.S_ISDIR(st.st_mode):
                if len(stack) >= MAX_DEPTH:
                    skipped.append(f"{where / name} (deeper than {MAX_DEPTH} folders)")
                    continue
                try:
                    child = os.open(name, _DIR, dir_fd=fd)
                except OSError:
                    continue  # replaced meanwhile (by a link, a file) or gone: not followed
                try:
                    os.fchown(child, uid, gid)
                    listed = _entries(child)
                except BaseException:
                    os.close(child)
                    raise
                stack.append((child, where / name, iter(listed)))
            elif (st.st_uid, st.st_gid) != (uid, gid):
                if st.st_nlink > 1 and st.st_uid != uid and not stat.S_ISLNK(st.st_mode):
                    skipped.append(f"{where / name} (hard-linked, owner uid {st.st_uid})")
                    continue
                with contextlib.suppress(FileNotFoundError):
                    os.chown(name, uid, gid, dir_fd=fd, follow_symlinks=False)
    finally:
        for fd, _, _ in stack:
            if fd != top:
                os.close(fd)
    for line in skipped:
        log.warning("left %s as it was", line)


def _entries(fd: int) -> list[tuple[str, os.stat_result]]:
    """The names in the folder open at ``fd`` with their own (link, not target) status."""
    found = []
    with os.scandir(fd) as it:
        for entry in it:
            with contextlib.suppress(FileNotFoundError):  # removed meanwhile
                found.append((entry.name, entry.stat(follow_symlinks=False)))
    return found
