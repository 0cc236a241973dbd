"""Who the agent's code runs as, in what view of the machine, with which environment.

When the harness runs as root, every agent process (kernel, bash, file tools, submission
reads) runs as an unprivileged user. Where bubblewrap works (``tools/namespace.py``), it also
runs in a namespace sandbox whose filesystem holds only the workspace, the interpreter and the
system folders: private files are absent, not merely unreadable. Elsewhere the user-based
sandbox is the fallback (``setpriv`` alone): the agent reads what file permissions let that
user read, so ``tools/exposure.py`` checks those permissions before a run. Without root the
agent runs as the harness's own user and the note says that nothing is protected.
"""

from __future__ import annotations

import functools
import getpass
import logging
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from tools import agent_io
from tools.agent_env import (
    AGENT_PYTHON_ENV,
    PASSTHROUGH_ENV,
    PIP_DIR,
    agent_environment,
    default_agent_user,
    interpreter_prefixes,
    is_secret_name,
    pip_environment,
    pip_site,
)
from tools.ownership import give_folders
from tools.reaper import Ended, clear_keyrings, end_user, user_processes
from tools.workspace import Workspace

INSTALL_HINT = (
    "install bubblewrap (apt-get install bubblewrap) to keep them out of the agent's view"
)
BACKENDS = ("auto", "namespace", "user")
NETWORKS = ("on", "off")
log = logging.getLogger(__name__)
__all__ = [
    "AGENT_PYTHON_ENV",
    "PASSTHROUGH_ENV",
    "Sandbox",
    "agent_environment",
    "ensure_user",
    "interpreter_prefixes",
    "is_secret_name",
]


def ensure_user(name: str) -> pwd.struct_passwd:
    """The account ``name``, created (with a home, without a login shell) if missing."""
    try:
        return pwd.getpwnam(name)
    except KeyError:
        pass
    useradd = shutil.which("useradd") or "/usr/sbin/useradd"
    proc = subprocess.run(
        [useradd, "--create-home", "--user-group", "--shell", "/usr/sbin/nologin", name],
        capture_output=True,
        text=True,
        check=False,
    )
    try:  # a concurrent run may have created it first; that is fine
        return pwd.getpwnam(name)
    except KeyError:
        raise RuntimeError(
            f"could not create the agent user {name!r}: {proc.stderr.strip()}"
        ) from None


@functools.cache
def _warn_fallback(problem: str) -> None:
    log.warning(
        "namespace sandbox unavailable (%s): agent code is isolated by user only, and private "
        "files are safe only where permissions keep it out; %s",
        problem,
        INSTALL_HINT,
    )


@dataclass
class Sandbox:
    """How to run things as the agent. Build it with ``Sandbox.create``; close it when done.

    This class is the user-based sandbox (and, without root, no sandbox); ``create`` returns a
    ``tools.namespace.NamespaceSandbox`` where bubblewrap works.
    """

    workspace: Workspace
    agent_python: str
    env: dict[str, str]
    """The whole environment of every agent process (no API keys, no harness settings)."""
    isolated: bool
    user: str | None
    """The agent's account when isolated, else None."""
    note: str
    """One line for the run record saying whether private files are protected."""
    uid: int | None = None
    gid: int | None = None
    _setpriv: str = field(default="setpriv", repr=False)
    network: str = "on"
    """``on``, or ``off``: agent code has loopback only (namespace sandbox only)."""
    ended: Ended | None = None
    """Set by ``close``: how the agent's processes were ended, and whether any survived
    (None without isolation, where they run as the harness's own user)."""
    kernel_transport: ClassVar[str] = "tcp"
    """How the harness reaches the kernel: ``tcp`` on localhost, or ``ipc`` sockets."""

    @classmethod
    def create(
        cls,
        workspace: Workspace,
        agent_user: str | None = None,
        agent_python: str | None = None,
        extra_env: Mapping[str, str] | None = None,
        backend: str = "auto",
        network: str = "on",
        gpu: bool = False,
    ) -> Sandbox:
        """Prepare ``workspace`` for the agent and check that its Python can run.

        ``agent_user`` defaults to ``$SCAFFOLDS_AGENT_USER``, else ``agent``; ``agent_python``
        to ``$SCAFFOLDS_AGENT_PYTHON``, else ``sys.executable``.
        ``backend``: ``namespace`` (bubblewrap), ``user`` (the agent user only), or ``auto``
        (namespace where bubblewrap works, else user, with a warning). ``network="off"``
        needs the namespace sandbox. ``gpu=True`` binds the machine's GPU device nodes into
        the namespace sandbox (for a task that needs a GPU); by default it has none, and
        ``CUDA_VISIBLE_DEVICES`` is empty for the agent under either backend. Raises
        RuntimeError, naming the fix, when a setting cannot be honoured, the agent cannot
        reach the workspace, or it cannot import ipykernel with that interpreter.
        """
        if backend not in BACKENDS or network not in NETWORKS:
            raise ValueError(f"backend must be one of {BACKENDS}, network one of {NETWORKS}")
        python = agent_python or os.environ.get(AGENT_PYTHON_ENV) or sys.executable
        if not gpu:  # CUDA sees none either, where the device nodes cannot be hidden
            extra_env = {"CUDA_VISIBLE_DEVICES": "", **(extra_env or {})}
        if os.geteuid() != 0:
            if network == "off" or backend == "namespace":
                raise RuntimeError(
                    "the namespace sandbox (needed by --agent-network off and --sandbox "
                    "namespace) needs a root harness"
                )
            me = getpass.getuser()
            home = os.environ.get("HOME") or pwd.getpwuid(os.getuid()).pw_dir
            extra = {**pip_environment(workspace, python), **(extra_env or {})}
            box = cls(
                workspace,
                python,
                agent_environment(python, home, me, extra),
                isolated=False,
                user=None,
                note=(
                    f"isolation off: the harness is not root, so agent code runs as {me!r} "
                    "and private answers are not protected"
                ),
            )
        else:
            extra = dict(extra_env or {})
            user = agent_user or default_agent_user()
            box = cls._isolated(workspace, user, python, extra, backend, network, gpu)
        try:
            box._check_python()
            if box.isolated:
                box._check_reach()
                assert box.uid is not None and box.gid is not None
                clear_keyrings(box.uid, box.gid, box.agent_python)  # no keys of earlier runs
        except BaseException:
            box.close()
            raise
        return box

    @classmethod
    def _isolated(
        cls,
        workspace: Workspace,
        user: str,
        python: str,
        extra_env: Mapping[str, str],
        backend: str,
        network: str,
        gpu: bool,
    ) -> Sandbox:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            raise RuntimeError("isolation needs setpriv (util-linux); install util-linux")
        account = ensure_user(user)
        if account.pw_uid == 0:
            raise RuntimeError(f"the agent user {user!r} has uid 0; choose an unprivileged user")
        uid, gid = account.pw_uid, account.pw_gid
        home = Path(account.pw_dir)
        if not home.is_dir():
            home.mkdir(parents=True, mode=0o755)
            os.chown(home, uid, gid)
        # The root stays root's: the agent may add files there (group write) but the sticky
        # bit stops it from renaming or deleting data/ or anything the harness put there.
        # Other users (other runs' agents) cannot enter at all.
        os.chown(workspace.root, 0, gid)
        os.chmod(workspace.root, 0o1770)
        # On resume the agent has had these folders: never follow a link it left there.
        site = pip_site(workspace, python) or workspace.root / PIP_DIR
        mine = (workspace.submission, workspace.code, workspace.working, site)
        repairs = give_folders(
            workspace.root, [str(p.relative_to(workspace.root)) for p in mine], uid, gid
        )
        pip = pip_environment(workspace, python, make=False)
        env = agent_environment(python, str(home), user, {**pip, **extra_env})
        problem = None
        if backend != "user":
            from tools.namespace import bwrap_path, namespace_problem

            problem = namespace_problem(bwrap_path())
        if problem is not None and (backend == "namespace" or network == "off"):
            raise RuntimeError(
                f"the namespace sandbox (--sandbox namespace, --agent-network off) cannot run: "
                f"{problem}; install bubblewrap (apt-get install bubblewrap) or use "
                "--sandbox user with --agent-network on"
            )
        if backend == "user" and network == "off":
            raise RuntimeError("--agent-network off needs --sandbox namespace (or auto)")
        if problem is None and backend != "user":
            from tools.namespace import NamespaceSandbox

            box: Sandbox = NamespaceSandbox.start(workspace, python, env, account, network, gpu)
        else:
            box = cls._user_based(workspace, python, env, account, setpriv, problem)
        if repairs:
            box.note += f"; repaired before start: {'; '.join(repairs)}"
        return box

    @classmethod
    def _user_based(
        cls,
        workspace: Workspace,
        python: str,
        env: dict[str, str],
        account: pwd.struct_passwd,
        setpriv: str,
        problem: str | None,
    ) -> Sandbox:
        user, uid, gid = account.pw_name, account.pw_uid, account.pw_gid
        busy = user_processes(uid)
        if busy:  # this sandbox's end will end them too: two live runs must not share a user
            log.warning(
                "the agent user %r already runs %d process(es) (pid %s); the end of this "
                "sandbox ends every process of that user, so give concurrent runs different "
                "agent users",
                user,
                len(busy),
                ", ".join(map(str, busy[:5])),
            )
        why = ""
        if problem is not None:
            _warn_fallback(problem)
            why = f" (namespace sandbox unavailable: {problem})"
        return cls(
            workspace,
            python,
            env,
            isolated=True,
            user=user,
            note=(
                f"isolation on, user-based{why}: agent code runs as user {user!r} (uid {uid}); "
                "private files are protected only by their permissions"
            ),
            uid=uid,
            gid=gid,
            _setpriv=setpriv,
        )

    @property
    def backend(self) -> str:
        """``namespace``, ``user`` or ``off`` (no isolation: the harness is not root)."""
        return "user" if self.isolated else "off"

    def describe(self) -> dict[str, object]:
        """The sandbox as the run record keeps it."""
        return {"backend": self.backend, "network": self.network, "user": self.user}

    def kernel_dir(self) -> Path:
        """A new folder for one kernel's connection file, which the agent may open, never
        replace (the folder is root's)."""
        path = Path(tempfile.mkdtemp(prefix="scaffolds-kernel-"))
        os.chmod(path, 0o711)  # the agent may open its connection file, not list
        return path

    def close(self) -> None:
        """End every process of the agent user, checked (``tools/reaper.py``), and empty its
        keyrings. Concurrent runs must therefore have different agent users (the grid's do).
        Idempotent; without isolation there is nothing the harness may end."""
        if self.isolated and self.ended is None:
            assert self.uid is not None and self.gid is not None
            self.ended = end_user(self.uid, self.gid, self.agent_python)
            clear_keyrings(self.uid, self.gid, self.agent_python)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def popen_args(self, argv: Sequence[str], cwd: str | Path | None = None) -> list[str]:
        """``argv`` prefixed so that it runs as the agent user (unchanged without isolation),
        in the working directory given to ``Popen``; ``cwd``, that same directory, lets the
        namespace sandbox start a one-shot call faster."""
        if not self.isolated:
            return list(argv)
        return [
            self._setpriv,
            f"--reuid={self.uid}",
            f"--regid={self.gid}",
            "--init-groups",
            "--no-new-privs",
            "--",
            *argv,
        ]

    def let_agent_read(self, path: Path) -> None:
        """Let the agent user read the file ``path`` but not change it: root keeps it, the
        agent's group may read it (a no-op without isolation). A link is never followed."""
        if self.isolated:
            assert self.gid is not None
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
            try:
                os.fchown(fd, 0, self.gid)
                os.fchmod(fd, 0o640)
            finally:
                os.close(fd)

    def read_file_as_agent(self, path: Path, timeout_s: float = 60.0) -> bytes:
        """The bytes of ``path``, read by the agent user; ToolError if it cannot read them."""
        return agent_io.read_bytes(self, Path(path), timeout_s)

    def _run(
        self, argv: Sequence[str], timeout_s: float = 60.0
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            self.popen_args(argv),
            env=self.env,
            cwd="/",
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout_s,
            check=False,
        )

    def _check_python(self) -> None:
        try:
            proc = self._run([self.agent_python, "-c", "import ipykernel"])
            problem = proc.stderr.strip().splitlines()[-1] if proc.returncode else ""
        except OSError as e:
            problem = str(e)
        if problem:
            who = f"the agent user {self.user!r}" if self.isolated else "the agent"
            raise RuntimeError(
                f"{who} cannot run `{self.agent_python} -c 'import ipykernel'`: {problem}. "
                "The kernel's interpreter and its packages must be readable and executable "
                "by that user (a venv under /root is not: /root is 0700). Create a venv from "
                "a system Python in a world-readable place (e.g. /usr/bin/python3 -m venv "
                "/opt/agent-venv; /opt/agent-venv/bin/pip install ipykernel) and pass it as "
                f"agent_python or set {AGENT_PYTHON_ENV}."
            )

    def _check_reach(self) -> None:
        ws = self.workspace
        proc = self._run(["test", "-r", str(ws.data), "-a", "-w", str(ws.working)])
        if proc.returncode != 0:
            raise RuntimeError(
                f"the agent user {self.user!r} cannot reach the workspace {ws.root}: a parent "
                "directory is not searchable by it (e.g. /root or a 0700 temp dir). Put the "
                "workspace under a directory every user may traverse (mode 0755 or 0711)."
            )
