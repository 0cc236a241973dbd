"""Who the agent's code runs as, with which environment.

When the harness runs as root, every agent process (kernel, bash, file tools, submission
reads) runs as an unprivileged user through ``setpriv``: it can read ``data/``, write the rest
of the workspace, and cannot read root-only files, signal the harness's processes or see the
harness's environment. Without root the agent runs as the harness's own user and the note
says that nothing is protected.
"""

from __future__ import annotations

import getpass
import os
import pwd
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tools import agent_io
from tools.workspace import Workspace

AGENT_PYTHON_ENV = "SCAFFOLDS_AGENT_PYTHON"
"""Environment variable naming the interpreter for agent code when none is passed."""

PASSTHROUGH_ENV = (
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "NUMEXPR_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "CUDA_VISIBLE_DEVICES",
    "NVIDIA_VISIBLE_DEVICES",
    "NVIDIA_DRIVER_CAPABILITIES",
    "LD_LIBRARY_PATH",
    "TZ",
)
"""The only harness variables agent processes inherit: thread counts, GPU selection, libraries."""

_SECRET_NAME = re.compile(r"API_?KEY|TOKEN|SECRET|PASSW|CREDENTIAL|PRIVATE_KEY|ACCESS_KEY")
_SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def is_secret_name(name: str) -> bool:
    """True for variable names that look like credentials (``*_API_KEY``, ``HF_TOKEN``, ...)."""
    return bool(_SECRET_NAME.search(name.upper()))


def agent_environment(
    agent_python: str, home: str, user: str, extra: Mapping[str, str] | None = None
) -> dict[str, str]:
    """A clean environment for agent processes, built up rather than filtered down."""
    env = {
        "PATH": f"{Path(agent_python).parent}:{_SYSTEM_PATH}",
        "HOME": home,
        "USER": user,
        "LOGNAME": user,
        "SHELL": "/bin/bash",
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "PYTHONUNBUFFERED": "1",
    }
    for name in PASSTHROUGH_ENV:
        if name in os.environ:
            env[name] = os.environ[name]
    env.update(extra or {})
    return {k: v for k, v in env.items() if not is_secret_name(k)}


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


def _chown_tree(path: Path, uid: int, gid: int) -> None:
    os.chown(path, uid, gid)
    for dirpath, dirnames, filenames in os.walk(path):
        for name in dirnames + filenames:
            os.lchown(os.path.join(dirpath, name), uid, gid)


@dataclass
class Sandbox:
    """How to run things as the agent. Build it with ``Sandbox.create``."""

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

    @classmethod
    def create(
        cls,
        workspace: Workspace,
        agent_user: str = "agent",
        agent_python: str | None = None,
        extra_env: Mapping[str, str] | None = None,
    ) -> Sandbox:
        """Prepare ``workspace`` for the agent and check that its Python can run.

        ``agent_python`` defaults to ``$SCAFFOLDS_AGENT_PYTHON``, else ``sys.executable``.
        Raises RuntimeError, naming the fix, when the agent cannot reach the workspace or
        cannot import ipykernel with that interpreter.
        """
        python = agent_python or os.environ.get(AGENT_PYTHON_ENV) or sys.executable
        if os.geteuid() != 0:
            me = getpass.getuser()
            home = os.environ.get("HOME") or pwd.getpwuid(os.getuid()).pw_dir
            box = cls(
                workspace,
                python,
                agent_environment(python, home, me, extra_env),
                isolated=False,
                user=None,
                note=(
                    f"isolation off: the harness is not root, so agent code runs as {me!r} "
                    "and private answers are not protected"
                ),
            )
        else:
            box = cls._isolated(workspace, agent_user, python, extra_env)
        box._check_python()
        return box

    @classmethod
    def _isolated(
        cls, workspace: Workspace, user: str, python: str, extra_env: Mapping[str, str] | None
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
        os.chown(workspace.root, 0, gid)
        os.chmod(workspace.root, 0o1775)
        for d in (workspace.submission, workspace.code, workspace.working):
            _chown_tree(d, uid, gid)
        box = cls(
            workspace,
            python,
            agent_environment(python, str(home), user, extra_env),
            isolated=True,
            user=user,
            note=f"isolation on: agent code runs as user {user!r} (uid {uid})",
            uid=uid,
            gid=gid,
            _setpriv=setpriv,
        )
        box._check_reach()
        return box

    def popen_args(self, argv: Sequence[str]) -> list[str]:
        """``argv`` prefixed so that it runs as the agent user (unchanged without isolation)."""
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

    def give_to_agent(self, path: Path) -> None:
        """Make the agent user own ``path`` (a no-op without isolation)."""
        if self.isolated:
            assert self.uid is not None and self.gid is not None
            os.chown(path, self.uid, self.gid)

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
