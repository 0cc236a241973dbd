"""File operations performed by the agent user, so that they see exactly what it may see.

Each is one short process run through the sandbox (``cat``, ``find``, ``sh``, or the agent's
interpreter for a read checked on its descriptor). Their limits hold from the harness's side
(``tools/bounded.py``): a deadline on the harness's clock that kills the process group, and a
cap on every byte read back, so that a FIFO, a device, ``/dev/zero`` or an agent process
tampering with the command cannot hang the harness or fill its memory or disk. Failures become
ToolError with the system's reason (``Permission denied``, ``No such file or directory``).
"""

from __future__ import annotations

import io
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Literal, Protocol

from tools import bounded
from tools.errors import ToolError

PathKind = Literal["file", "directory", "missing"]

MAX_READ_BYTES = 64 * 2**20
"""Largest file the editing tools read whole (``str_replace``, ``insert``)."""
MAX_COPY_BYTES = 4 * 2**30
"""Largest file copied out for validation or submission."""
MAX_LISTING_BYTES = 8 * 2**20
"""Largest directory listing read back from ``find``."""

_KIND_SCRIPT = (
    'if [ -d "$1" ]; then echo directory; elif [ -e "$1" ]; then echo file; else echo missing; fi'
)
_WRITE_SCRIPT = 'mkdir -p -- "$(dirname -- "$1")" && cat > "$1"'
_REGULAR_READER = """\
import os, stat, sys
path, limit = sys.argv[1], int(sys.argv[2])
try:
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
except OSError as e:
    sys.exit(f"{path}: {e.strerror}")
st = os.fstat(fd)
if not stat.S_ISREG(st.st_mode):
    sys.exit(f"{path}: not a regular file")
if st.st_size > limit:
    sys.exit(f"{path}: {st.st_size} bytes, over the limit of {limit}")
os.set_blocking(fd, True)
while data := os.read(fd, 1 << 20):
    os.write(1, data)
"""
"""Run as the agent by ``copy_out``: opens the path once, and checks on that descriptor that it
is a regular file within the size limit before sending any byte."""


class RunsAsAgent(Protocol):
    env: dict[str, str]
    agent_python: str

    def popen_args(self, argv: Sequence[str], cwd: str | None = None) -> list[str]: ...


def _argv(box: RunsAsAgent, argv: Sequence[str]) -> list[str]:
    return box.popen_args(list(argv), cwd="/")


def _reason(done: bounded.Finished, timeout_s: float, limit: int | None = None) -> str:
    if done.timed_out:
        return f"timed out after {timeout_s:.0f} s (is it a pipe or a device?)"
    if done.overflowed:
        return f"larger than {limit} bytes"
    lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
    return lines[-1].rsplit(": ", 1)[-1] if lines else f"exit status {done.returncode}"


def _run(box: RunsAsAgent, argv: Sequence[str], timeout_s: float, **kw: Any) -> bounded.Finished:
    return bounded.run(_argv(box, argv), box.env, max(1.0, timeout_s), **kw)


def path_kind(box: RunsAsAgent, path: Path, timeout_s: float = 60.0) -> PathKind:
    """What the agent sees at ``path``: a file, a directory, or nothing it can reach."""
    done = _run(box, ["sh", "-c", _KIND_SCRIPT, "sh", str(path)], timeout_s, max_stdout=64)
    kind = done.stdout.decode(errors="replace").strip()
    if done.returncode != 0 or kind not in ("file", "directory", "missing"):
        raise ToolError(f"Cannot inspect {path}: {_reason(done, timeout_s)}")
    return kind  # type: ignore[return-value]


def read_bytes(
    box: RunsAsAgent, path: Path, timeout_s: float = 60.0, max_bytes: int = MAX_READ_BYTES
) -> bytes:
    """The content of ``path`` as the agent reads it (at most ``max_bytes``)."""
    done = _run(box, ["cat", "--", str(path)], timeout_s, max_stdout=max_bytes)
    if done.returncode != 0:
        raise ToolError(f"Cannot read {path}: {_reason(done, timeout_s, max_bytes)}")
    return done.stdout


def copy_out(
    box: RunsAsAgent,
    path: Path,
    dest: Path,
    timeout_s: float = 600.0,
    max_bytes: int = MAX_COPY_BYTES,
) -> None:
    """Copy the regular file ``path``, read as the agent, to ``dest`` (a harness-side file).
    Anything but a regular file, or a file over ``max_bytes``, is refused before a byte is
    copied; the harness also stops reading at ``max_bytes``."""
    argv = [box.agent_python, "-I", "-S", "-c", _REGULAR_READER, str(path), str(max_bytes)]
    with open(dest, "wb") as out:
        done = _run(box, argv, timeout_s, max_stdout=max_bytes, sink=out)
    if done.returncode != 0:
        dest.unlink(missing_ok=True)
        raise ToolError(f"Cannot read {path}: {_reason(done, timeout_s, max_bytes)}")


def write_bytes(
    box: RunsAsAgent, path: Path, data: bytes | IO[bytes], timeout_s: float = 60.0
) -> None:
    """Create or overwrite ``path`` as the agent, creating missing parent directories, with
    ``data`` (bytes, or a harness-side file open for reading)."""
    argv = ["sh", "-c", _WRITE_SCRIPT, "sh", str(path)]
    done = _run(box, argv, timeout_s, input=data, max_stdout=4096)
    if done.returncode != 0:
        raise ToolError(f"Cannot write {path}: {_reason(done, timeout_s)}")


@contextmanager
def open_for_reading(box: RunsAsAgent, path: Path, timeout_s: float = 60.0) -> Iterator[IO[bytes]]:
    """A stream of ``path``'s bytes as the agent reads it. Read it to the end: on leaving
    the block, ToolError is raised if the agent could not read the whole file, or if the
    deadline passed (the reader is then killed)."""
    timeout_s = max(1.0, timeout_s)
    proc = bounded.AgentProcess(
        _argv(box, ["cat", "--", str(path)]), box.env, time.monotonic() + timeout_s
    )
    stream = io.BufferedReader(bounded.Reader(proc), 1 << 16)
    timed_out = False
    try:
        yield stream
    except bounded.Deadline:
        timed_out = True
    except BaseException:
        proc.kill()
        raise
    finally:
        code, stderr = proc.finish()
    if timed_out:
        raise ToolError(f"Cannot read {path}: timed out after {timeout_s:.0f} s")
    if code != 0:
        done = bounded.Finished(code, b"", stderr)
        raise ToolError(f"Cannot read {path}: {_reason(done, timeout_s)}")


def list_tree(
    box: RunsAsAgent, path: Path, depth: int = 2, timeout_s: float = 60.0
) -> tuple[list[tuple[str, bool]], list[str]]:
    """Non-hidden entries under ``path`` up to ``depth`` levels, as (relative path, is_dir),
    sorted; plus the problems ``find`` met (unreadable subdirectories, a listing cut short)."""
    argv = ["find", str(path), "-mindepth", "1", "-maxdepth", str(depth)]
    argv += ["-name", ".*", "-prune", "-o", "-printf", "%y %P\\0"]
    done = _run(box, argv, timeout_s, max_stdout=MAX_LISTING_BYTES)
    items = done.stdout.decode("utf-8", "replace").split("\0")
    if done.returncode is None and items:
        items.pop()  # cut short: the last entry may be partial
    entries = []
    for item in items:
        if item:
            kind, _, rel = item.partition(" ")
            entries.append((rel, kind == "d"))
    problems = done.stderr.decode("utf-8", "replace").strip().splitlines()
    if done.returncode is None:
        problems.append(f"[listing cut short: {_reason(done, timeout_s, MAX_LISTING_BYTES)}]")
    elif done.returncode != 0 and not entries:
        raise ToolError(f"Cannot list {path}: {_reason(done, timeout_s)}")
    return sorted(entries), problems
