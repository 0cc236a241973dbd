"""A different agent user for each run at a time on one machine (when the harness is root).

Agent code of two runs under one user could read each other's workspaces and kill each
other's kernels (see tools/README.md). A run holds an ``flock`` on
``$TMPDIR/scaffolds-agent-users/<user>.lock`` while it runs; a new run takes the first free
``agent-g<k>``; a resumed run needs the user it started with (its files belong to that user).
Locks are per machine, so grids, Ray workers and backends on one machine share them.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
import time
from dataclasses import dataclass
from itertools import count
from pathlib import Path

PREFIX = "agent-g"


def isolation_on() -> bool:
    """Agent users only matter when the harness runs as root (tools.Sandbox isolates then)."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


def lock_dir() -> Path:
    path = Path(tempfile.gettempdir()) / "scaffolds-agent-users"
    path.mkdir(mode=0o700, exist_ok=True)
    return path


@dataclass
class UserLease:
    name: str
    fd: int

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # closing drops the flock
            self.fd = -1


def try_lease(name: str) -> UserLease | None:
    """Hold ``name`` for one run, or None when another run on this machine holds it."""
    fd = os.open(lock_dir() / f"{name}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return UserLease(name, fd)


def lease_free() -> UserLease:
    """The first ``agent-g<k>`` no run on this machine holds."""
    for k in count(1):
        lease = try_lease(f"{PREFIX}{k}")
        if lease is not None:
            return lease
    raise AssertionError("unreachable")


def lease_waiting(name: str, poll_s: float = 1.0) -> UserLease:
    """Hold ``name``, waiting for the run that holds it to end."""
    while True:
        lease = try_lease(name)
        if lease is not None:
            return lease
        time.sleep(poll_s)
