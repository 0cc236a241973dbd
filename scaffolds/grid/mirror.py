"""A run folder on a Ray worker, streamed back into the driver's copy while the run works.

The worker's :class:`Outbox` starts from the folder the driver sent and lists what changed
since its last send: the whole folder at every checkpoint (each rewrites ``run.json``) and when
the process ends, the record logs alone every :data:`SYNC_S` seconds in between. A lost node
therefore costs at most the step in flight, and a big workspace is walked once per step, not
once per tick. Top-level record logs (``*.jsonl``, ``*.log``) travel as their appended bytes,
everything else whole; the grid's own files, which the driver writes, never travel back.

Order keeps the driver's copy resumable: the worker reads ``run.json`` before anything else and
the driver writes it last, so the driver's ``run.json`` never claims progress that its logs do
not hold. A resume from it redoes at most the step in flight and never counts a step twice.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from scaffolds.grid.command import LOCK_FILE
from scaffolds.grid.runstate import ATTEMPTS_FILE, ERROR_FILE, SPEC_FILE
from scaffolds.grid.transfer import left_behind, pack_members, safe_target, unpack

SYNC_S = 5.0
RECORD = "run.json"
DRIVER_FILES = frozenset({SPEC_FILE, ATTEMPTS_FILE, ERROR_FILE, LOCK_FILE})
"""Written by the driver only: the worker's copies are never sent back."""
APPENDED = (".jsonl", ".log")
"""Top-level files with these suffixes only ever grow (trajectory, journal, scaffold log)."""


class MirrorError(Exception):
    """The driver's copy and the worker's disagree in a way a change list cannot mend."""


@dataclass
class Delta:
    """Changes to a run folder, applied in this order: removals, appends, whole members."""

    gone: list[str] = field(default_factory=list)
    appends: list[tuple[str, int, bytes]] = field(default_factory=list)
    """(path, offset, bytes): the file's new bytes from ``offset`` on."""
    members: bytes = b""
    """A tar (``transfer.pack_members``) of new or changed folders, links and files, run.json
    last."""

    def __bool__(self) -> bool:
        return bool(self.gone or self.appends or self.members)


class Entry(NamedTuple):
    kind: int  # stat.S_IFMT
    size: int
    mtime_ns: int
    ino: int
    mode: int
    uid: int
    gid: int


def _entry(st: os.stat_result) -> Entry:
    kind = stat.S_IFMT(st.st_mode)
    if kind == stat.S_IFDIR:  # a folder travels for its mode and owner, not its contents' times
        return Entry(kind, 0, 0, 0, st.st_mode, st.st_uid, st.st_gid)
    return Entry(kind, st.st_size, st.st_mtime_ns, st.st_ino, st.st_mode, st.st_uid, st.st_gid)


KINDS = (stat.S_IFDIR, stat.S_IFREG, stat.S_IFLNK)
"""What travels: folders, files, links (no sockets, pipes or devices)."""


def scan(run_dir: Path) -> dict[str, Entry]:
    """Every folder, file and link under ``run_dir`` that travels back, by relative path."""
    found: dict[str, Entry] = {}
    for dirpath, dirs, files in os.walk(run_dir):
        base = os.path.relpath(dirpath, run_dir)
        rels = {name: name if base == "." else f"{base}/{name}" for name in dirs + files}
        for rel in rels.values():
            if left_behind(rel) or rel in DRIVER_FILES:
                continue
            try:
                entry = _entry(os.lstat(run_dir / rel))
            except FileNotFoundError:
                continue
            if entry.kind in KINDS:
                found[rel] = entry
        dirs[:] = [d for d in dirs if rels[d] in found]  # not into what stays behind
    return found


def scan_logs(run_dir: Path) -> dict[str, Entry]:
    """The top-level record logs alone."""
    found = {}
    for path in run_dir.glob("*"):
        if path.name.endswith(APPENDED) and path.name not in DRIVER_FILES:
            with contextlib.suppress(FileNotFoundError):
                found[path.name] = _entry(os.lstat(path))
    return {rel: e for rel, e in found.items() if e.kind == stat.S_IFREG}


class Outbox:
    """The worker's side: what the driver's copy lacks, as :class:`Delta` s."""

    def __init__(self, run_dir: Path):
        self.run_dir = run_dir
        self.sent = scan(run_dir)
        """What the driver holds, as far as this worker knows."""
        self.last = time.monotonic()

    def _record_entry(self) -> Entry | None:
        try:
            return _entry(os.lstat(self.run_dir / RECORD))
        except FileNotFoundError:
            return None

    def due(self) -> str | None:
        """``"checkpoint"`` once run.json changed, ``"logs"`` after :data:`SYNC_S` without a
        send, else None."""
        if self._record_entry() != self.sent.get(RECORD):
            return "checkpoint"
        return "logs" if time.monotonic() - self.last >= SYNC_S else None

    def take(self, logs_only: bool = False) -> Delta:
        """The changes since the last call (empty when there are none): of the whole folder,
        or of the record logs alone."""
        self.last = time.monotonic()
        if logs_only:
            record, now = None, {**self.sent, **scan_logs(self.run_dir)}
        else:
            record, record_entry = None, None
            try:
                with open(self.run_dir / RECORD, "rb") as f:  # first: see the module docstring
                    record_entry, record = _entry(os.fstat(f.fileno())), f.read()
            except FileNotFoundError:
                pass
            now = scan(self.run_dir)
            if record_entry is not None:
                now[RECORD] = record_entry
            else:
                now.pop(RECORD, None)
        delta = Delta(gone=sorted(set(self.sent) - set(now)))
        whole = []
        for rel in sorted(now):
            old, new = self.sent.get(rel), now[rel]
            if old == new or rel == RECORD:
                continue
            if (
                old is not None
                and "/" not in rel
                and rel.endswith(APPENDED)
                and new.kind == old.kind == stat.S_IFREG
                and new.ino == old.ino
                and new.size >= old.size
            ):
                data = _read_from(self.run_dir / rel, old.size)
                if data is not None:
                    delta.appends.append((rel, old.size, data))
                    now[rel] = new._replace(size=old.size + len(data))
                    continue
            whole.append(rel)
        read = {}
        if record is not None and now.get(RECORD) != self.sent.get(RECORD):
            whole.append(RECORD)
            read[RECORD] = record
        if whole:
            delta.members = pack_members(self.run_dir, whole, read)
        self.sent = now
        return delta


def _read_from(path: Path, offset: int) -> bytes | None:
    try:
        with path.open("rb") as f:
            f.seek(offset)
            return f.read()
    except FileNotFoundError:
        return None


def apply_delta(run_dir: Path, delta: Delta) -> None:
    """The driver's side: bring its copy of the run folder up to the worker's."""
    root = Path(os.path.realpath(run_dir))
    for rel in delta.gone:
        target = safe_target(root, rel)
        if target is None or rel in DRIVER_FILES:
            continue
        if os.path.isdir(target) and not os.path.islink(target):
            shutil.rmtree(target, ignore_errors=True)
        elif os.path.lexists(target):
            os.unlink(target)
    for rel, offset, data in delta.appends:
        target = safe_target(root, rel)
        if target is None or rel in DRIVER_FILES:
            continue
        with open(target, "r+b") as f:
            size = f.seek(0, os.SEEK_END)
            if size < offset:
                raise MirrorError(
                    f"{rel}: the driver's copy has {size} bytes, the worker appended at {offset}"
                )
            f.truncate(offset)
            f.seek(offset)
            f.write(data)
    if delta.members:
        unpack(delta.members, run_dir)
