"""Run folders as bytes, for runs that execute on another machine (Ray workers).

The copy of the task's public data (``workspace/data``) stays behind: it can be large and is
restored from the task before a resume (``job.ensure_workspace_data``). File owners and modes
travel, so a resumed run's agent user still owns its workspace.
"""

from __future__ import annotations

import io
import os
import tarfile
from pathlib import Path

LEFT_BEHIND = ("workspace/data", "grid.lock")


def pack(run_dir: Path) -> bytes:
    """The folder as an uncompressed tar, minus :data:`LEFT_BEHIND`."""

    def keep(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
        rel = info.name.split("/", 1)[1] if "/" in info.name else ""
        if any(rel == p or rel.startswith(p + "/") for p in LEFT_BEHIND):
            return None
        return info

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        tar.add(run_dir, arcname=run_dir.name, filter=keep)
    return buffer.getvalue()


def _inside(root: Path, path: str) -> bool:
    real = os.path.realpath(path)
    return real == str(root) or real.startswith(str(root) + os.sep)


def unpack(data: bytes, run_dir: Path) -> None:
    """Extract ``pack``'s bytes over ``run_dir`` (which need not exist). Members that would land
    outside it (absolute or ``..`` paths, links pointing out) are skipped."""
    run_dir.mkdir(parents=True, exist_ok=True)
    root = Path(os.path.realpath(run_dir))
    with tarfile.open(fileobj=io.BytesIO(data), mode="r") as tar:
        members = []
        for info in tar.getmembers():
            _, _, rel = info.name.partition("/")
            if not rel:
                os.chmod(root, info.mode)  # the folder itself
                continue
            target = os.path.join(root, rel)
            if (
                os.path.isabs(rel)
                or ".." in Path(rel).parts
                or not _inside(root, os.path.dirname(target))
            ):
                continue
            if info.issym() and not _inside(
                root, os.path.join(os.path.dirname(target), info.linkname)
            ):
                continue
            if info.islnk():
                continue
            if os.path.lexists(target) and not os.path.isdir(target):
                os.unlink(target)  # replace in place (read-only files included)
            info.name = rel
            members.append(info)
        tar.extractall(root, members=members)  # members checked above
