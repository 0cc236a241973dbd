"""A run's workspace, laid out like MLE-bench's container.

``data/`` holds a copy of the task's public files, read-only; ``submission/``, ``code/`` and
``working/`` are the agent's. Private answers and graders never live here.
"""

from __future__ import annotations

import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path

SUBDIRS = ("data", "submission", "code", "working")


def _make_read_only(root: Path) -> None:
    """Files lose every write bit (keeping exec bits); directories become 0755."""
    for dirpath, _dirnames, filenames in os.walk(root):
        os.chmod(dirpath, 0o755)
        for name in filenames:
            path = os.path.join(dirpath, name)
            mode = os.lstat(path).st_mode
            if stat.S_ISREG(mode):
                executable = mode & stat.S_IXUSR
                os.chmod(path, 0o555 if executable else 0o444)


@dataclass(frozen=True)
class Workspace:
    root: Path

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def submission(self) -> Path:
        return self.root / "submission"

    @property
    def code(self) -> Path:
        return self.root / "code"

    @property
    def working(self) -> Path:
        return self.root / "working"

    @classmethod
    def create(cls, root: Path, public_dir: Path | None = None) -> Workspace:
        """Make a new workspace at ``root``, copying ``public_dir`` (if any) into ``data/``.

        The copy is a real copy, never hard links, so that making it read-only cannot touch
        the task's own files. Raises FileExistsError if ``root`` already holds a workspace.
        """
        root = Path(root).absolute()
        existing = [d for d in SUBDIRS if (root / d).exists()]
        if existing:
            raise FileExistsError(
                f"{root} already has {', '.join(existing)}/; use Workspace.open to resume"
            )
        root.mkdir(parents=True, exist_ok=True)
        ws = cls(root)
        if public_dir is not None:
            public_dir = Path(public_dir)
            if not public_dir.is_dir():
                raise FileNotFoundError(f"public_dir {public_dir} is not a directory")
            shutil.copytree(public_dir, ws.data, symlinks=False, copy_function=shutil.copy2)
        else:
            ws.data.mkdir()
        _make_read_only(ws.data)
        for d in (ws.submission, ws.code, ws.working):
            d.mkdir()
        return ws

    @classmethod
    def open(cls, root: Path) -> Workspace:
        """An existing workspace (e.g. to resume a run). Only ``data/`` must be there: the
        agent may have removed or replaced its own folders, which ``Sandbox.create`` remakes
        under a root harness (``tools/ownership.py``)."""
        root = Path(root).absolute()
        if not (root / "data").is_dir():
            raise FileNotFoundError(f"{root} is not a workspace: missing data/")
        return cls(root)

    def resolve(self, path: str) -> Path:
        """``path`` as an absolute, normalised path; relative paths start at the root."""
        p = Path(path)
        return Path(os.path.normpath(p if p.is_absolute() else self.root / p))
