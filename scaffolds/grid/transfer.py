"""Run folders as bytes, for runs that execute on another machine (Ray workers).

The copy of the task's public data (``workspace/data``) stays behind: it can be large and is
restored from the task before a resume (``job.ensure_workspace_data``). File modes and owners
travel (owners by name where the receiving machine knows the name, else by number), so a resumed
run's agent user still owns its workspace. Unpacking replaces each file by rename: a reader, or
a kill in the middle, sees every file whole, old or new.
"""

from __future__ import annotations

import grp
import io
import os
import pwd
import shutil
import tarfile
from collections.abc import Callable, Mapping
from pathlib import Path

from scaffolds.record import atomic_file

LEFT_BEHIND = ("workspace/data", "grid.lock")


def left_behind(rel: str) -> bool:
    return any(rel == p or rel.startswith(p + "/") for p in LEFT_BEHIND)


def pack(run_dir: Path, select: Callable[[str], bool] | None = None) -> bytes:
    """The folder as an uncompressed tar: the paths ``select`` keeps (by relative path), by
    default all but :data:`LEFT_BEHIND`."""
    wanted = select or (lambda rel: not left_behind(rel))

    def keep(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
        rel = info.name.split("/", 1)[1] if "/" in info.name else ""
        return info if not rel or wanted(rel) else None

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        tar.add(run_dir, arcname=run_dir.name, filter=keep)
    return buffer.getvalue()


def pack_members(run_dir: Path, rels: list[str], read: Mapping[str, bytes]) -> bytes:
    """A tar of these paths of ``run_dir``, in this order (not recursing into folders); a path
    in ``read`` is stored with those bytes rather than what the file holds now."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for rel in rels:
            path = run_dir / rel
            try:
                info = tar.gettarinfo(str(path), arcname=f"{run_dir.name}/{rel}")
            except FileNotFoundError:
                continue  # gone since it was listed: the next change list says so
            if info is None:  # a socket: nothing to send
                continue
            if rel in read:
                info.size = len(read[rel])
                tar.addfile(info, io.BytesIO(read[rel]))
            elif info.isreg():
                try:
                    with path.open("rb") as f:
                        data = f.read()
                except FileNotFoundError:
                    continue
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
            else:
                tar.addfile(info)
    return buffer.getvalue()


def _inside(root: Path, path: str) -> bool:
    real = os.path.realpath(path)
    return real == str(root) or real.startswith(str(root) + os.sep)


def safe_target(root: Path, rel: str) -> str | None:
    """Where ``rel`` lands under ``root`` (a real path), or None when it would land outside."""
    target = os.path.join(root, rel)
    if os.path.isabs(rel) or ".." in Path(rel).parts or not _inside(root, os.path.dirname(target)):
        return None
    return target


def _owner(info: tarfile.TarInfo) -> tuple[int, int]:
    try:
        uid = pwd.getpwnam(info.uname).pw_uid if info.uname else info.uid
    except KeyError:
        uid = info.uid
    try:
        gid = grp.getgrnam(info.gname).gr_gid if info.gname else info.gid
    except KeyError:
        gid = info.gid
    return uid, gid


def _clear(target: str) -> None:
    if os.path.isdir(target) and not os.path.islink(target):
        shutil.rmtree(target)


def _place(tar: tarfile.TarFile, info: tarfile.TarInfo, target: str) -> None:
    """Write one member at ``target``: folders in place, files and links by rename."""
    root_user = os.geteuid() == 0
    if info.isdir():
        if os.path.lexists(target) and not os.path.isdir(target):
            os.unlink(target)
        os.makedirs(target, exist_ok=True)
        if root_user:
            os.chown(target, *_owner(info))
        os.chmod(target, info.mode)
        return
    os.makedirs(os.path.dirname(target), exist_ok=True)
    if info.issym():
        tmp = os.path.join(
            os.path.dirname(target), f".{os.path.basename(target)}.{os.getpid()}.part"
        )
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(info.linkname, tmp)
        if root_user:
            os.lchown(tmp, *_owner(info))
        _clear(target)
        os.replace(tmp, target)
        return
    source = tar.extractfile(info)
    assert source is not None
    with atomic_file(Path(target), info.mode) as f:
        shutil.copyfileobj(source, f)
        f.flush()
        if root_user:
            os.fchown(f.fileno(), *_owner(info))
        os.fchmod(f.fileno(), info.mode)  # exactly the member's, whatever the umask
        os.utime(f.fileno(), (info.mtime, info.mtime))
        _clear(target)


def unpack(data: bytes, run_dir: Path) -> None:
    """Write ``pack``'s (or ``pack_members``') bytes over ``run_dir`` (which need not exist).
    Members that would land outside it (absolute or ``..`` paths, links pointing out), hard
    links and special files are skipped."""
    run_dir.mkdir(parents=True, exist_ok=True)
    root = Path(os.path.realpath(run_dir))
    with tarfile.open(fileobj=io.BytesIO(data), mode="r") as tar:
        for info in tar:
            _, _, rel = info.name.partition("/")
            if not rel:
                os.chmod(root, info.mode)  # the folder itself
                continue
            target = safe_target(root, rel)
            if target is None or not (info.isdir() or info.isreg() or info.issym()):
                continue
            if info.issym() and not _inside(
                root, os.path.join(os.path.dirname(target), info.linkname)
            ):
                continue
            _place(tar, info, target)
