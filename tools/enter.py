"""How a process enters the namespace sandbox as the agent, by the descriptors the harness holds.

``nsenter`` joins the sandbox's namespaces and its view's root through ``/proc/<harness>/fd/<n>``
(so a recycled PID can never redirect it) and forks into the PID namespace; ``setpriv``
becomes the agent user with no capabilities and ``no_new_privs``. The kernel goes through a
``sh`` script that shields the chain from SIGINT (the kernel is interrupted through its process
group) and ``env -C`` that enters the caller's directory inside the view; a one-shot call that
names its directory skips both, ``nsenter --wdns`` entering it inside the view.
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass

SYSTEM_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"
"""Where the harness looks for ``nsenter``, ``setpriv`` and ``bash``."""


@dataclass(frozen=True)
class Entry:
    """How a process enters the sandbox as the agent: ``nsenter`` (joining the namespaces and
    the view's root through descriptors the harness holds) and then ``setpriv``."""

    nsenter: list[str]
    """Without a working-directory option."""
    become: list[str]
    root: str
    """The view's root, as the harness opens it (``/proc/<harness>/fd/<n>``)."""

    def script(self) -> str:
        """The ``sh -c`` script that runs ``"$@"`` in the caller's working directory (which
        must be inside the view), with SIGINT ignored up to the agent's own program."""
        chain = [*self.nsenter, f"--wd={self.root}", "--", *self.become, "--"]
        return (
            f"trap '' INT; cd -P . || exit 125; unset OLDPWD; "
            f'exec {shlex.join(chain)} /usr/bin/env --default-signal=INT -C "$PWD" -- "$@"'
        )

    def argv(self, argv: Sequence[str], cwd: str) -> list[str]:
        """``argv`` run in ``cwd``, a path resolved inside the view (``nsenter --wdns``): two
        programs fewer than the script, for calls that need no SIGINT shield."""
        return [*self.nsenter, f"--wdns={cwd}", "--", *self.become, "--", *argv]


def entry(fd: dict[str, int], uid: int, gid: int, groups: Sequence[int]) -> Entry:
    """The way in through the harness's namespace descriptors ``fd`` (``mnt``, ``pid``,
    ``ipc``, ``net`` when the network is off, and ``root``)."""
    me = os.getpid()
    nsenter = [shutil.which("nsenter", path=SYSTEM_PATH) or "nsenter"]
    nsenter += [f"--{ns}=/proc/{me}/fd/{fd[key]}" for ns, key in _ns_options(fd)]
    nsenter.append(f"--root=/proc/{me}/fd/{fd['root']}")
    become = [
        "/usr/bin/setpriv",
        f"--reuid={uid}",
        f"--regid={gid}",
        "--groups=" + ",".join(str(g) for g in groups) if groups else "--clear-groups",
        "--inh-caps=-all",
        "--bounding-set=-all",
        "--no-new-privs",
    ]
    return Entry(nsenter, become, f"/proc/{me}/fd/{fd['root']}")


@functools.cache
def nsenter_has_wdns(nsenter: str) -> bool:
    """True when ``nsenter`` can set the working directory inside the namespace (``--wdns``,
    util-linux >= 2.38); older ones go through the shell script."""
    try:
        proc = subprocess.run([nsenter, "--help"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "--wdns" in proc.stdout


def _ns_options(fds: dict[str, int]) -> list[tuple[str, str]]:
    names = {"mnt": "mount", "pid": "pid", "ipc": "ipc", "net": "net"}
    return [(names[key], key) for key in fds if key in names]
