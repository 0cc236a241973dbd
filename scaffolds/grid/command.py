"""The command line of one scaffold run, and the launcher that ties its life to the grid's.

Each run is ``sys.executable -m scaffolds.<name> ...`` in its own session (so a Ctrl-C in the
terminal reaches the grid, which stops its runs in order). Started through a tiny launcher that
asks Linux to send the run SIGINT when the process that started it dies (a grid killed with
SIGKILL leaves no orphan run: each records itself as interrupted), and that holds a lock on the
run folder for the life of the run, so a rerun never starts a run whose old process is still
finishing.
"""

from __future__ import annotations

import fcntl
import os
import shlex
import sys
from pathlib import Path

from scaffolds.grid.config import GridConfig
from scaffolds.grid.plan import RunSpec

LAUNCHER = """\
import fcntl, os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
try:
    import ctypes
    ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGINT))  # PR_SET_PDEATHSIG
except Exception:
    pass
if os.getppid() != int(sys.argv[1]):
    sys.exit(130)  # the grid died before the prctl: do not start
lock = os.open(sys.argv[2], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(lock, fcntl.LOCK_EX)  # held by the scaffold process until it ends
os.set_inheritable(lock, True)
os.execv(sys.argv[3], sys.argv[3:])
"""
"""Run as ``python -c LAUNCHER <grid pid> <run lock> <argv...>``; the death signal and the lock
survive ``execv``."""

LOCK_FILE = "grid.lock"
"""In the run folder: held (flock) by the scaffold process working on it."""


def busy(run_dir: Path) -> bool:
    """True while a scaffold process (perhaps of an earlier, killed grid) works in ``run_dir``."""
    path = run_dir / LOCK_FILE
    if not path.exists():
        return False
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # also drops the lock if we got it
    return False


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def scaffold_argv(
    config: GridConfig,
    spec: RunSpec,
    run_dir: Path,
    resume: bool,
    agent_user: str | None,
    python: str | None = None,
) -> list[str]:
    """The scaffold's own command line (what ``scaffold.log`` and the attempt log record)."""
    argv = [python or sys.executable, "-m", f"scaffolds.{spec.scaffold}"]
    if resume:
        argv += ["--resume", str(run_dir)]
    else:
        argv += ["--model", spec.model_string(), "--task", spec.task, "--out", str(run_dir)]
        argv += ["--seed", str(spec.seed)]
        if spec.policy is not None:  # a resumed run keeps the policy it saved
            argv += ["--policy", spec.policy]
        if spec.parallel_nodes is not None:  # and its nodes in flight
            argv += ["--parallel-nodes", str(spec.parallel_nodes)]
        if agent_user is not None:
            argv += ["--agent-user", agent_user]
    if config.time_limit is not None:
        argv += ["--time-limit", _number(config.time_limit)]
    if config.steps is not None:
        argv += ["--steps", str(config.steps)]
    if config.api_base is not None:
        argv += ["--api-base", config.api_base]
    if config.data_dir is not None:
        argv += ["--data-dir", str(config.data_dir.absolute())]
    if config.scaffold_args:
        argv += shlex.split(config.scaffold_args)
    return argv


def launched(argv: list[str], parent_pid: int, run_dir: Path) -> list[str]:
    """``argv`` wrapped in the launcher, for a child of the process ``parent_pid``."""
    return [sys.executable, "-c", LAUNCHER, str(parent_pid), str(run_dir / LOCK_FILE), *argv]
