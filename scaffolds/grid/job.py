"""Before and after one scaffold process: decide fresh / resume, and turn its end into a row."""

from __future__ import annotations

import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scaffolds.grid.plan import RunSpec
from scaffolds.grid.results import INTERRUPTED, RUNS_DIR, Results, build_row
from scaffolds.grid.runstate import (
    Attempt,
    State,
    add_attempt,
    clean_for_restart,
    clear_crash,
    crash_reason,
    read_run_json,
    record_crash,
    state_of,
    write_spec,
)


@dataclass
class Job:
    """A run the grid is about to start or continue."""

    spec: RunSpec
    run_dir: Path
    resume: bool

    @property
    def saved_user(self) -> str | None:
        """The agent user a resumed run started with (its workspace files are that user's)."""
        summary = read_run_json(self.run_dir) or {}
        user = (summary.get("config") or {}).get("agent_user")
        return str(user) if self.resume and user else None


def prepare(spec: RunSpec, grid_dir: Path, retry_crashed: bool) -> Job | None:
    """The job for ``spec``, or None when the run is done (finished, or crashed and not retried)."""
    run_dir = grid_dir / RUNS_DIR / spec.name
    state = state_of(run_dir, retry_crashed)
    if state in (State.FINISHED, State.CRASHED):
        return None
    if state is State.RESTART:
        clean_for_restart(grid_dir, run_dir)
    clear_crash(run_dir)
    write_spec(run_dir, spec)
    return Job(spec, run_dir, resume=state is State.RESUME)


@dataclass
class Ended:
    """A scaffold process that ended, as a backend reports it."""

    job: Job
    attempt: Attempt
    error: str | None = None
    """A failure outside the scaffold process: the run crashed, unless ``attempt.lost`` (its
    node or worker died), when the grid continues it elsewhere (``runner.continue_lost``)."""
    stopped: bool = False
    """The grid stopped it (Ctrl-C, SIGTERM): unfinished rather than crashed."""


def finish(ended: Ended, grid_dir: Path, results: Results) -> dict[str, Any]:
    """Log the attempt, judge it and append the run's row to results.jsonl.

    A run that ended badly is crashed (``grid_error.txt``, status ``crashed``), unless the grid
    stopped it: then it is ``interrupted``, and the next rerun continues it."""
    job = ended.job
    add_attempt(job.run_dir, ended.attempt)
    reason = ended.error or crash_reason(job.run_dir, ended.attempt.exit_code)
    if reason and ended.stopped:
        row = build_row(job.spec, job.run_dir, grid_dir, status=INTERRUPTED)
    else:
        text = record_crash(job.run_dir, reason) if reason else None
        row = build_row(job.spec, job.run_dir, grid_dir, error=text)
    results.append(row)
    return row


def ensure_workspace_data(run_dir: Path, task: str, data_dir: Path | None) -> None:
    """Give a run about to resume its ``workspace/data`` back when it travelled without it
    (Ray results leave the public data behind): a read-only copy of the task's public files."""
    workspace = run_dir / "workspace"
    if not workspace.is_dir() or (workspace / "data").exists():
        return
    from bench_adapters import resolve_task

    options = {"data_dir": data_dir} if data_dir else {}
    public = resolve_task(task, **options).public_dir
    shutil.copytree(public, workspace / "data", symlinks=False)
    for dirpath, _dirs, files in os.walk(workspace / "data"):
        os.chmod(dirpath, 0o755)
        for name in files:
            path = os.path.join(dirpath, name)
            executable = os.lstat(path).st_mode & stat.S_IXUSR
            os.chmod(path, 0o555 if executable else 0o444)
