"""The run record: ``run.json`` (a summary, replaced atomically) and ``trajectory.jsonl`` (appended).

Every string written passes through ``Redactor``: values of environment variables whose names end
in ``_API_KEY``, ``_TOKEN`` or ``_SECRET`` never reach a file.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any, BinaryIO

FORMAT_VERSION = 2
"""2: run.json holds ``integrity`` (``scaffolds.integrity``), ``machine`` and
``provider_models``; records of version 1 are reported as unverified."""
SECRET_SUFFIXES = ("_API_KEY", "_TOKEN", "_SECRET")
REDACTED = "[REDACTED]"

_NODE: ContextVar[int | None] = ContextVar("scaffolds_node", default=None)


def current_node() -> int | None:
    """The search node this thread works for (``for_node``), else None."""
    return _NODE.get()


@contextmanager
def for_node(node_id: int) -> Iterator[None]:
    """Within the block, this thread works for node ``node_id``: each event it records says so
    (``node``), and a keyed replay model answers it by node and call index."""
    token = _NODE.set(node_id)
    try:
        yield
    finally:
        _NODE.reset(token)


def package_version() -> str:
    try:
        return metadata.version("mlagent-scaffolds")
    except metadata.PackageNotFoundError:
        return "unknown"


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Redactor:
    """Replaces secret values (taken from the environment when created) in any JSON-able value."""

    def __init__(self, environ: Mapping[str, str] | None = None):
        env = os.environ if environ is None else environ
        secrets = {v for k, v in env.items() if k.upper().endswith(SECRET_SUFFIXES) and len(v) >= 4}
        self._secrets = sorted(secrets, key=len, reverse=True)

    def __call__(self, value: Any) -> Any:
        if not self._secrets:
            return value
        if isinstance(value, str):
            for secret in self._secrets:
                if secret in value:
                    value = value.replace(secret, REDACTED)
            return value
        if isinstance(value, dict):
            return {self(k): self(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self(v) for v in value]
        return value


def _json_default(value: Any) -> Any:
    if isinstance(value, Path):
        return str(value)
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    return repr(value)


def dumps(value: Any) -> str:
    """JSON text of ``value`` that is valid UTF-8: a lone surrogate (from a model's JSON, or a
    file name that is not UTF-8) becomes ``?`` instead of making the record unwritable."""
    text = json.dumps(value, default=_json_default, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "replace").decode("utf-8")
    return text


@contextmanager
def atomic_file(path: Path, mode: int = 0o600) -> Iterator[BinaryIO]:
    """A new file, open for writing, that replaces ``path`` when the block ends, so that a
    reader or a kill never sees half of it; when the block raises, it is removed and ``path``
    is left as it was. Every whole-file write of the suite goes through here.

    The file is created beside ``path`` (same folder, so the rename is atomic) under a fresh
    random name with ``O_CREAT | O_EXCL | O_NOFOLLOW``, as ``tempfile.mkstemp`` does: never an
    existing file, never through a link planted under its name. Unlike ``mkstemp`` (always
    0o600) it takes ``mode``, less the umask, as ``open`` applies it, so that each caller keeps
    its files' mode. It is synced to disk before ``os.replace`` renames it over ``path``; a
    link at ``path`` is replaced, never followed."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    for _ in range(100):
        tmp = path.with_name(f".{path.name}.{os.urandom(6).hex()}.tmp")
        try:
            fd = os.open(tmp, flags, mode)
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(f"no free temporary name beside {path}")
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_atomic(path: Path, data: bytes | str, mode: int = 0o600) -> None:
    """Write a whole file by rename (``atomic_file``); text is written as UTF-8. ``mode``:
    0o600 (the default) for what only the harness's user may read, 0o666 for a file created
    as ``open`` creates one (the umask decides)."""
    with atomic_file(path, mode) as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)


def write_json_atomic(path: Path, value: Any, redact: Redactor | None = None) -> None:
    """Write a whole JSON file by rename, readable by the harness's user only (records are
    the harness's), so a reader or a kill never sees half of it."""
    redact = redact or Redactor()
    data = redact(json.loads(dumps(value)))
    write_atomic(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n", 0o600)


class JsonlLog:
    """An append-only JSON-lines file. A torn last line (from a kill mid-write) is dropped on open."""

    def __init__(self, path: Path, redact: Redactor | None = None):
        self.path = path
        self.redact = redact or Redactor()
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
        _drop_torn_tail(path)
        self._lock = threading.Lock()  # lines from several threads never interleave

    def append(self, record: dict[str, Any]) -> None:
        line = dumps(self.redact(json.loads(dumps(record))))
        with self._lock, self.path.open("a", encoding="utf-8") as f:
            f.write(line + "\n")
            f.flush()

    def read(self) -> Iterator[dict[str, Any]]:
        if not self.path.exists():
            return
        with self.path.open(encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    yield json.loads(line)


def _drop_torn_tail(path: Path) -> None:
    if not path.exists() or path.stat().st_size == 0:
        return
    with path.open("rb+") as f:
        data = f.read()
        if data.endswith(b"\n"):
            return
        f.truncate(data.rfind(b"\n") + 1)


class RunRecord:
    """One run's folder: ``run.json`` summary plus the ``trajectory.jsonl`` event log."""

    def __init__(self, run_dir: Path):
        self.dir = run_dir
        run_dir.mkdir(parents=True, exist_ok=True)
        self.redact = Redactor()
        self.trajectory = JsonlLog(run_dir / "trajectory.jsonl", self.redact)
        self.summary: dict[str, Any] = {}
        if (run_dir / "run.json").exists():
            self.summary = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))

    def event(self, kind: str, **data: Any) -> None:
        """Append one event: model_call, tool_call, observation, reminder, truncation, error, ...
        An event recorded for a search node (``for_node``) names it as ``node``."""
        node = _NODE.get()
        if node is not None and "node" not in data:
            data["node"] = node
        self.trajectory.append({"t": time.time(), "kind": kind, **data})

    def events(self) -> Iterator[dict[str, Any]]:
        return self.trajectory.read()

    def start(self, **fields: Any) -> None:
        """Begin (or, when run.json exists, continue) a run with its config and identity."""
        if not self.summary:
            self.summary = {
                "format_version": FORMAT_VERSION,
                "package_version": package_version(),
                "status": "running",
                "started_at": now_iso(),
                "ended_at": None,
            }
        self.summary.update(fields)
        self.summary["status"] = "running"
        self.save()

    def update(self, **fields: Any) -> None:
        self.summary.update(fields)
        self.save()

    def finish(self, status: str, **fields: Any) -> None:
        self.summary.update(fields, status=status, ended_at=now_iso())
        self.save()

    def save(self) -> None:
        write_json_atomic(self.dir / "run.json", self.summary, self.redact)
