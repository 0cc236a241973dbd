"""The grid's backstop for a run that outlives its wall-clock limit.

A run ends itself at its wall limit (``scaffolds.budget``: ``wall_limit``). Should a scaffold
process not (a harness stuck in a system call, say), the grid ends it: once an attempt has run
for the wall limit its run.json states (``limits.wall_limit_s``) plus ``GRACE_S``, the grid
kills the process group, ends every process of the run's agent user, and makes run.json final
as ``wall_limit`` with ``ended_by: grid``, so the run is counted as ended by that limit, never
resumed and never left running.

The wall limit is the agent's part of the run, as the run's own clock counts it: an attempt's
clock starts once its run.json states the limit (a new run writes it when its workspace and
kernel are ready, so a long set-up, such as copying a large data set, is not counted), and the
watch stops once run.json says the agent's part ended (``agent_ended_at``): the harness then
keeps and grades the run, which may take hours (a PaperBench reproduction) under its graders'
own bounds.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scaffolds.grid.runstate import read_run_json
from scaffolds.record import RunRecord

GRACE_S = 120.0
"""How long past its wall limit a run gets to end itself before the grid ends it."""
STATUS = "wall_limit"


def wall_limit_of(run_dir: Path, summary: dict[str, Any] | None = None) -> float | None:
    """The wall limit the run recorded when it started (None before it has); ``summary``:
    its run.json, when already read."""
    limits = (summary or read_run_json(run_dir) or {}).get("limits") or {}
    value = limits.get("wall_limit_s")
    return float(value) if isinstance(value, int | float) else None


def end_past_wall(run_dir: Path, pid: int, agent_user: str | None) -> None:
    """Kill the scaffold process group ``pid``, end the agent user's processes (the user-based
    sandbox's; a namespace sandbox ends with its harness), and make run.json final."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    if agent_user:
        from tools.reaper import end_user

        with contextlib.suppress(KeyError, OSError):
            account = pwd.getpwnam(agent_user)
            end_user(account.pw_uid, account.pw_gid, sys.executable)


def finalize(run_dir: Path, attempt_s: float) -> None:
    """run.json final as ``wall_limit`` (ended by the grid), with an ``end`` event."""
    summary = read_run_json(run_dir)
    if summary is None or summary.get("status") not in ("running", "interrupted"):
        return
    record = RunRecord(run_dir)
    error = (
        f"the grid ended the run {attempt_s:.0f}s after it started, past its wall-clock limit "
        f"of {wall_limit_of(run_dir) or 0:.0f}s plus {GRACE_S:.0f}s"
    )
    grade = {"graded": False, "reason": error, "valid_submission": None}
    record.event("end", status=STATUS, error=error, ended_by="grid")
    record.finish(STATUS, error=error, grade=grade, ended_by="grid")


@dataclass
class WallWatch:
    """One attempt's watch: ``check`` (cheap to call often; it reads run.json every
    ``EVERY_S``) ends the attempt once it is past its run's wall limit, and says so once."""

    run_dir: Path
    started: float
    """``time.monotonic()`` when the attempt began; moved on while the run is still setting
    up."""
    ended: bool = False
    _next: float = field(default=0.0, repr=False)

    EVERY_S = 5.0

    def check(self, pid: int, agent_user: str | None) -> bool:
        """True when this call ended the attempt (the caller then waits for the process)."""
        now = time.monotonic()
        if self.ended or now < self._next:
            return False
        self._next = now + self.EVERY_S
        summary = read_run_json(self.run_dir) or {}
        limit = wall_limit_of(self.run_dir, summary)
        if limit is None:  # still setting up: the run's wall clock has not started
            self.started = now
            return False
        if summary.get("agent_ended_at") or now - self.started <= limit + GRACE_S:
            return False
        end_past_wall(self.run_dir, pid, agent_user)
        self.ended = True
        return True

    def settle(self) -> None:
        """After the killed process was reaped: make its run.json final."""
        if self.ended:
            finalize(self.run_dir, time.monotonic() - self.started)
