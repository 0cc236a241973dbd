"""File operations performed by the agent user, so that they see exactly what it may see.

Each is one short process run through the sandbox (``cat``, ``find``, ``sh``), bounded by
``timeout`` so that a FIFO or a device cannot hang the harness. Failures become ToolError
with the system's reason (``Permission denied``, ``No such file or directory``).
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Literal, Protocol

from tools.errors import ToolError

PathKind = Literal["file", "directory", "missing"]

_KIND_SCRIPT = (
    'if [ -d "$1" ]; then echo directory; elif [ -e "$1" ]; then echo file; else echo missing; fi'
)
_WRITE_SCRIPT = 'mkdir -p -- "$(dirname -- "$1")" && cat > "$1"'


class RunsAsAgent(Protocol):
    env: dict[str, str]

    def popen_args(self, argv: Sequence[str], cwd: str | None = None) -> list[str]: ...


def _argv(box: RunsAsAgent, argv: Sequence[str], timeout_s: float) -> list[str]:
    seconds = f"{max(1.0, timeout_s):.0f}"
    return box.popen_args(["timeout", "--signal=KILL", seconds, *argv], cwd="/")


def _reason(proc_returncode: int, stderr: str | bytes) -> str:
    if proc_returncode in (124, 137, -9):
        return "timed out (is it a pipe or a device?)"
    if isinstance(stderr, bytes):
        stderr = stderr.decode("utf-8", "replace")
    lines = stderr.strip().splitlines()
    return lines[-1].rsplit(": ", 1)[-1] if lines else f"exit status {proc_returncode}"


def _run(
    box: RunsAsAgent, argv: Sequence[str], timeout_s: float, **kw: object
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(  # type: ignore[call-overload,no-any-return]
        _argv(box, argv, timeout_s), env=box.env, cwd="/", check=False, **kw
    )


def path_kind(box: RunsAsAgent, path: Path, timeout_s: float = 60.0) -> PathKind:
    """What the agent sees at ``path``: a file, a directory, or nothing it can reach."""
    proc = _run(box, ["sh", "-c", _KIND_SCRIPT, "sh", str(path)], timeout_s, capture_output=True)
    kind = proc.stdout.decode().strip()
    if kind not in ("file", "directory", "missing"):
        raise ToolError(f"Cannot inspect {path}: {_reason(proc.returncode, proc.stderr)}")
    return kind  # type: ignore[return-value]


def read_bytes(box: RunsAsAgent, path: Path, timeout_s: float = 60.0) -> bytes:
    """The content of ``path`` as the agent reads it."""
    proc = _run(box, ["cat", "--", str(path)], timeout_s, capture_output=True)
    if proc.returncode != 0:
        raise ToolError(f"Cannot read {path}: {_reason(proc.returncode, proc.stderr)}")
    return proc.stdout


def copy_out(box: RunsAsAgent, path: Path, dest: Path, timeout_s: float = 600.0) -> None:
    """Copy ``path``, read as the agent, to ``dest`` (a harness-side file), streaming."""
    with open(dest, "wb") as out:
        proc = _run(box, ["cat", "--", str(path)], timeout_s, stdout=out, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        raise ToolError(f"Cannot read {path}: {_reason(proc.returncode, proc.stderr)}")


def write_bytes(box: RunsAsAgent, path: Path, data: bytes, timeout_s: float = 60.0) -> None:
    """Create or overwrite ``path`` as the agent, creating missing parent directories."""
    proc = _run(
        box,
        ["sh", "-c", _WRITE_SCRIPT, "sh", str(path)],
        timeout_s,
        input=data,
        capture_output=True,
    )
    if proc.returncode != 0:
        raise ToolError(f"Cannot write {path}: {_reason(proc.returncode, proc.stderr)}")


@contextmanager
def open_for_reading(box: RunsAsAgent, path: Path, timeout_s: float = 60.0) -> Iterator[IO[bytes]]:
    """A stream of ``path``'s bytes as the agent reads it. Read it to the end: on leaving
    the block, ToolError is raised if the agent could not read the whole file."""
    proc = subprocess.Popen(
        _argv(box, ["cat", "--", str(path)], timeout_s),
        env=box.env,
        cwd="/",
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        yield proc.stdout
    except BaseException:
        proc.kill()
        raise
    finally:
        proc.stdout.close()
        stderr = proc.stderr.read()
        proc.stderr.close()
        code = proc.wait()
    if code != 0:
        raise ToolError(f"Cannot read {path}: {_reason(code, stderr)}")


def list_tree(
    box: RunsAsAgent, path: Path, depth: int = 2, timeout_s: float = 60.0
) -> tuple[list[tuple[str, bool]], list[str]]:
    """Non-hidden entries under ``path`` up to ``depth`` levels, as (relative path, is_dir),
    sorted; plus the problems ``find`` met (unreadable subdirectories)."""
    argv = ["find", str(path), "-mindepth", "1", "-maxdepth", str(depth)]
    argv += ["-name", ".*", "-prune", "-o", "-printf", "%y %P\\0"]
    proc = _run(box, argv, timeout_s, capture_output=True)
    entries = []
    for item in proc.stdout.decode("utf-8", "replace").split("\0"):
        if item:
            kind, _, rel = item.partition(" ")
            entries.append((rel, kind == "d"))
    problems = proc.stderr.decode("utf-8", "replace").strip().splitlines()
    if proc.returncode != 0 and not entries:
        raise ToolError(f"Cannot list {path}: {_reason(proc.returncode, proc.stderr)}")
    return sorted(entries), problems
