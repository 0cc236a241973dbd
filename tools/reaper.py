"""Ending every process of the agent, and showing that none is left.

A run's end takes, validates and grades what the agent left only once no agent process can
change it any more. Under the namespace sandbox, ending its PID namespace ends them all; under
the user-based sandbox, a process run as the agent user sends SIGKILL to every process that
user may signal (``kill(-1)``: one pass of the kernel, so a process forking meanwhile does not
escape), ``setsid`` children and daemons included. Either way ``/proc`` is then searched for a
survivor, and the result is what the run record keeps.

The agent user's kernel keyrings (``keyctl``'s user and user-session keyrings) outlive its
processes; ``clear_keyrings`` empties them, so no run finds keys another run left.
"""

from __future__ import annotations

import contextlib
import os
import platform
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

_SETPRIV = "/usr/bin/setpriv"
_KILL_ALL = "import os, signal; os.kill(-1, signal.SIGKILL)"
_KEYCTL_SYSCALL = {"x86_64": 250, "aarch64": 219, "arm64": 219}
_CLEAR_KEYRINGS = (
    "import ctypes, sys; libc = ctypes.CDLL(None); "
    "[libc.syscall(int(sys.argv[1]), 7, ring) for ring in (-4, -5)]"  # KEYCTL_CLEAR @u, @us
)
_SETTLE_S = 5.0


@dataclass
class Ended:
    """How the end of a sandbox went, for the run record."""

    how: str
    """``pid namespace ended`` or ``every process of uid N killed``."""
    found: int = 0
    """Agent processes alive when the end began (zombies not counted)."""
    survivors: list[int] = field(default_factory=list)
    """PIDs still alive after it: empty, or the run's integrity is in doubt."""

    @property
    def clean(self) -> bool:
        return not self.survivors

    def to_dict(self) -> dict[str, object]:
        return {**asdict(self), "clean": self.clean}


def _status(pid: str) -> dict[str, str]:
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8", errors="replace") as f:
            return dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)
    except OSError:
        return {}


def _alive(status: dict[str, str]) -> bool:
    return bool(status) and not status.get("State", "").startswith(("Z", "X"))


def user_processes(uid: int) -> list[int]:
    """Live processes any of whose user ids (real, effective, saved, file system) is ``uid``."""
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            status = _status(pid)
            if _alive(status) and str(uid) in status.get("Uid", "").split():
                found.append(int(pid))
    return found


def namespace_processes(pid_ns: int) -> list[int]:
    """Live processes in the PID namespace whose inode is ``pid_ns``."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            inode = os.stat(f"/proc/{pid}/ns/pid").st_ino
        except OSError:
            continue
        if inode == pid_ns and _alive(_status(pid)):
            found.append(int(pid))
    return found


def as_user(uid: int, gid: int, argv: list[str]) -> list[str]:
    """``argv`` run as ``uid:gid`` outside any sandbox, with no groups and no privileges."""
    return [_SETPRIV, f"--reuid={uid}", f"--regid={gid}", "--clear-groups", "--no-new-privs",
            "--", *argv]  # fmt: skip


def end_user(uid: int, gid: int, python: str) -> Ended:
    """SIGKILL every process of ``uid`` (run as ``uid``, with ``python``), until none is left."""
    ended = Ended(f"every process of uid {uid} killed", found=len(user_processes(uid)))
    deadline = time.monotonic() + _SETTLE_S
    while True:
        if ended.found or user_processes(uid):
            with contextlib.suppress(OSError, subprocess.SubprocessError):
                subprocess.run(as_user(uid, gid, [python, "-I", "-S", "-c", _KILL_ALL]),
                               env={"PATH": "/usr/bin:/bin"}, cwd="/", timeout=10,
                               stdin=subprocess.DEVNULL, capture_output=True, check=False)  # fmt: skip
        left = user_processes(uid)
        if not left or time.monotonic() > deadline:
            for pid in left:  # last resort: root kills them one by one
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            ended.survivors = _settled(lambda: user_processes(uid))
            return ended
        time.sleep(0.05)


def end_namespace(pid_ns: int, close: Callable[[], object]) -> Ended:
    """Run ``close()`` (which ends the namespace's PID 1), then check that the namespace whose
    inode is ``pid_ns`` holds no live process, killing any that does."""
    ended = Ended("pid namespace ended", found=len(namespace_processes(pid_ns)))
    close()
    left = _settled(lambda: namespace_processes(pid_ns))
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    ended.survivors = _settled(lambda: namespace_processes(pid_ns)) if left else []
    return ended


def _settled(scan: Callable[[], list[int]]) -> list[int]:
    """``scan()`` once the processes it finds have had a moment to finish dying."""
    deadline = time.monotonic() + _SETTLE_S
    while True:
        left = scan()
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.02)


def clear_keyrings(uid: int, gid: int, python: str) -> None:
    """Empty ``uid``'s user and user-session keyrings (a no-op where keyctl is unknown)."""
    number = _KEYCTL_SYSCALL.get(platform.machine())
    if number is None:
        return
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(as_user(uid, gid, [python, "-I", "-S", "-c", _CLEAR_KEYRINGS, str(number)]),
                       env={"PATH": "/usr/bin:/bin"}, cwd="/", timeout=10,
                       stdin=subprocess.DEVNULL, capture_output=True, check=False)  # fmt: skip
