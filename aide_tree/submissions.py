"""Each node's submission: taken from the workspace as the node's code left it, checked by the
task's validator, and kept in the run folder when its node becomes the best.

The workspace's submission folder belongs to the agent, whose code may leave links there, so
the harness (often root) never follows a path inside it: it walks down from the workspace root
with ``O_NOFOLLOW``, accepts only a regular file owned by the agent user and no larger than
``tools.agent_io.MAX_COPY_BYTES``, and copies from the opened file, holes kept
(``tools.keep.copy_open_file``). That costs microseconds per step, where reading the file as the agent through a
process (``tools.agent_io``) costs milliseconds.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from tools.agent_io import MAX_COPY_BYTES
from tools.keep import NotTaken, copy_open_file

_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW


@dataclass(frozen=True)
class SubmissionCheck:
    path: str | None
    """The submission file, relative to the workspace, if the code wrote one."""
    valid: bool
    message: str
    """The validator's message (also for a missing file)."""


class Submissions:
    """The submission path of one run's workspace, and the best node's copy in the run folder."""

    def __init__(
        self,
        workspace_root: Path,
        relpath: str,
        validate: Callable[[Path], tuple[bool, str]],
        run_dir: Path,
        owner_uid: int | None,
        inside: tuple[str, ...] = (),
    ):
        self.workspace_root = workspace_root
        self.inside = inside
        """Folders between the workspace root and ``relpath`` (a parallel node's own folder),
        walked like the submission's own folders, never through a link."""
        self.parts = PurePosixPath(relpath).parts
        self.relpath = relpath
        self.validate = validate
        self.owner_uid = owner_uid
        """Only files owned by this user are accepted (None: isolation off, any owner)."""
        self.best = run_dir / relpath
        self.pending = run_dir / ".aide-pending"
        self.pending.mkdir(mode=0o700, exist_ok=True)

    def _candidate(self, node_id: int) -> Path:
        return self.pending / f"node-{node_id}{PurePosixPath(self.relpath).suffix}"

    @contextmanager
    def _folder(self, create: bool = False) -> Iterator[int]:
        """An fd of the submission's folder, reached without following any link."""
        fd = os.open(self.workspace_root, os.O_RDONLY | os.O_DIRECTORY)
        try:
            for k, part in enumerate(self.inside + self.parts[:-1]):
                try:
                    sub = os.open(part, _DIR, dir_fd=fd)
                except OSError:
                    if not create or k < len(self.inside):
                        raise
                    _remove(part, fd)
                    os.mkdir(part, 0o755, dir_fd=fd)
                    sub = os.open(part, _DIR, dir_fd=fd)
                os.close(fd)
                fd = sub
            yield fd
        finally:
            os.close(fd)

    def clear(self) -> None:
        """Remove what an earlier node left at the submission path."""
        try:
            with self._folder() as folder:
                _remove(self.parts[-1], folder)
        except OSError:
            pass  # no folder: nothing to remove

    def collect(self, node_id: int) -> SubmissionCheck:
        """Check the file the node's code wrote; a readable one is kept as the node's candidate."""
        candidate = self._candidate(node_id)
        candidate.unlink(missing_ok=True)
        try:
            with self._folder() as folder:
                flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
                fd = os.open(self.parts[-1], flags, dir_fd=folder)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                return SubmissionCheck(
                    self.relpath, False, f"{self.relpath} is a link, not a file."
                )
            _, message = self.validate(candidate)  # the validator's own words for a missing file
            return SubmissionCheck(None, False, self._relative(message, candidate))
        try:
            copy_open_file(fd, candidate, MAX_COPY_BYTES, self.owner_uid)
        except NotTaken as exc:
            return SubmissionCheck(self.relpath, False, f"{self.relpath} was not taken: {exc}.")
        finally:
            os.close(fd)
        ok, message = self.validate(candidate)
        return SubmissionCheck(self.relpath, ok, self._relative(message, candidate))

    def _relative(self, message: str, path: Path) -> str:
        """The validator's message, naming the file as the agent's code sees it."""
        return message.replace(str(path), self.relpath)

    def keep(self, node_id: int) -> bool:
        """Make node ``node_id``'s candidate the run's submission; False if it has none."""
        candidate = self._candidate(node_id)
        if not candidate.is_file():
            return False
        self.best.parent.mkdir(parents=True, exist_ok=True)
        os.replace(candidate, self.best)
        return True

    def drop(self, node_id: int) -> None:
        self._candidate(node_id).unlink(missing_ok=True)

    def restore(self) -> None:
        """Leave the best submission (or none) at the workspace's submission path, which is
        what the run record keeps and grades."""
        with self._folder(create=True) as folder:
            _remove(self.parts[-1], folder)
            if not self.best.is_file():
                return
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
            fd = os.open(self.parts[-1], flags, 0o644, dir_fd=folder)
            with os.fdopen(fd, "wb") as dst, open(self.best, "rb") as src:
                shutil.copyfileobj(src, dst, 2**20)


def _remove(name: str, folder: int) -> None:
    """Remove the entry ``name`` of an open folder, whatever it is, following no link."""
    try:
        os.unlink(name, dir_fd=folder)
    except FileNotFoundError:
        pass
    except (IsADirectoryError, PermissionError):
        shutil.rmtree(name, dir_fd=folder)
