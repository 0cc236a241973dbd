"""One run's folder as the grid sees it: what the scaffold wrote, plus the grid's own notes.

The grid adds to the scaffold's record: ``grid_run.json`` (which cell of the grid this is),
``scaffold.log`` (the scaffold's stdout and stderr, appended per attempt),
``grid_attempts.jsonl`` (a line when the grid starts a process, and one when it sees it end),
``grid.lock`` (locked while a scaffold process works in the folder) and, for a crashed run,
``grid_error.txt``.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path
from typing import Any

from scaffolds.exit_codes import for_status
from scaffolds.grid.plan import RunSpec
from scaffolds.record import JsonlLog, write_json_atomic

UNFINISHED = frozenset({"running", "interrupted"})
"""run.json statuses a rerun resumes. Every other status is a finished run."""

SPEC_FILE = "grid_run.json"
LOG_FILE = "scaffold.log"
ATTEMPTS_FILE = "grid_attempts.jsonl"
ERROR_FILE = "grid_error.txt"
LOG_TAIL_CHARS = 4000


class State(Enum):
    FRESH = "fresh"
    """Nothing there yet: start the run."""
    FINISHED = "finished"
    """run.json has a final status: skip."""
    RESUME = "resume"
    """run.json says running or interrupted: continue it with --resume."""
    RESTART = "restart"
    """A folder without run.json (killed before the run began), or a crashed run that cannot
    be resumed: start again (see ``clean_for_restart``)."""
    CRASHED = "crashed"
    """Crashed, and the grid was told not to retry crashed runs: skip."""


@dataclass
class Attempt:
    """One scaffold process the grid started for a run."""

    started_at: str
    ended_at: str
    wall_s: float
    exit_code: int
    resumed: bool
    command: list[str]
    node: str | None = None
    """Where it ran (a Ray node's name; None on the local backend)."""
    lost: bool = False
    """Its node or worker died: the grid continues the run from its last checkpoint."""


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def read_run_json(run_dir: Path) -> dict[str, Any] | None:
    """The scaffold's run.json, or None when missing or unreadable."""
    try:
        data = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def is_final(summary: dict[str, Any] | None) -> bool:
    return summary is not None and summary.get("status") not in UNFINISHED | {None}


def state_of(run_dir: Path, retry_crashed: bool = True) -> State:
    """What a (re)run of the grid should do with this run folder."""
    if not run_dir.is_dir() or all(p.name == SPEC_FILE for p in run_dir.iterdir()):
        return State.FRESH  # empty, or planned by a grid that was stopped before starting it
    summary = read_run_json(run_dir)
    crashed = (run_dir / ERROR_FILE).exists()
    if crashed and not retry_crashed:
        return State.CRASHED
    if summary is None:
        return State.RESTART
    if summary.get("status") in UNFINISHED:
        return State.RESUME
    return State.RESTART if crashed else State.FINISHED


def write_spec(run_dir: Path, spec: RunSpec) -> None:
    run_dir.mkdir(parents=True, exist_ok=True)
    if not (run_dir / SPEC_FILE).exists():
        write_json_atomic(run_dir / SPEC_FILE, spec.to_dict())


def read_spec(run_dir: Path) -> RunSpec | None:
    try:
        return RunSpec.from_dict(json.loads((run_dir / SPEC_FILE).read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


GRID_FILES = frozenset({SPEC_FILE, LOG_FILE, ATTEMPTS_FILE})


def clean_for_restart(grid_dir: Path, run_dir: Path) -> None:
    """Make room for a new start. A folder without run.json holds no run yet (at most a
    half-made workspace): keep the grid's own files (the log goes on) and drop the rest. A
    folder with a record is moved aside whole."""
    if read_run_json(run_dir) is not None:
        set_aside(grid_dir, run_dir)
        return
    for path in run_dir.iterdir():
        if path.name in GRID_FILES:
            continue
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()


def set_aside(grid_dir: Path, run_dir: Path) -> Path:
    """Move a run folder that will be started again to ``GRID_DIR/old_attempts/<name>.<k>``."""
    root = grid_dir / "old_attempts"
    root.mkdir(parents=True, exist_ok=True)
    k = 1
    while (root / f"{run_dir.name}.{k}").exists():
        k += 1
    target = root / f"{run_dir.name}.{k}"
    shutil.move(str(run_dir), str(target))
    return target


def note_start(run_dir: Path, command: list[str], resumed: bool) -> None:
    """Log a process start at once: a grid killed before the process ends still shows it."""
    JsonlLog(run_dir / ATTEMPTS_FILE).append(
        {"event": "start", "at": now_iso(), "resumed": resumed, "command": command}
    )


def add_attempt(run_dir: Path, attempt: Attempt) -> None:
    """Log a process end; ``at`` is when the grid saw it end."""
    JsonlLog(run_dir / ATTEMPTS_FILE).append({"event": "end", "at": now_iso(), **asdict(attempt)})


def times_lost(run_dir: Path) -> int:
    """How many of this run's processes were lost with their node or worker."""
    return sum(bool(a.get("lost")) for a in attempts(run_dir) if a.get("event") == "end")


def attempts(run_dir: Path) -> list[dict[str, Any]]:
    """The attempt log, read only: a ``start`` line per process started, an ``end`` line per
    process the grid saw end (a line torn by a kill is skipped)."""
    path = run_dir / ATTEMPTS_FILE
    lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
    entries = []
    for line in lines:
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return entries


def log_tail(run_dir: Path, chars: int = LOG_TAIL_CHARS) -> str:
    path = run_dir / LOG_FILE
    if not path.is_file():
        return ""
    with path.open("rb") as f:
        f.seek(max(0, path.stat().st_size - chars))
        return f.read().decode("utf-8", errors="replace")


def crash_reason(run_dir: Path, exit_code: int) -> str | None:
    """Why the process that just ended counts as crashed, or None when it did not crash.

    A scaffold that ended as its record says did not crash, whatever its exit code (1 for a
    run that ended in model_error, 130 for an interrupted one; see scaffolds.exit_codes)."""
    summary = read_run_json(run_dir)
    status = (summary or {}).get("status")
    if status not in (None, "running") and exit_code == for_status(status):
        return None
    if (summary or {}).get("ended_by") == "grid":
        return None  # the grid ended it at its wall limit (scaffolds.grid.walls)
    if exit_code != 0:
        return f"the scaffold exited with code {exit_code}"
    if summary is None:
        return "the scaffold ended without writing run.json"
    if summary.get("status") == "running":
        return "the scaffold ended while run.json still says running"
    return None


def record_crash(run_dir: Path, reason: str) -> str:
    """Write ``grid_error.txt`` (reason and the log's tail); return the text."""
    text = f"{reason}\n--- last lines of {LOG_FILE} ---\n{log_tail(run_dir)}"
    fd = os.open(run_dir / ERROR_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:  # the harness's alone, as the record is
        f.write(text)
    return text


def clear_crash(run_dir: Path) -> None:
    """Before a retry: the old error stays in results.jsonl, not in the folder."""
    (run_dir / ERROR_FILE).unlink(missing_ok=True)
