"""The environment agent processes get, built up rather than filtered down, and the interpreter
folders they need.

No API key, token or harness setting reaches agent code: the environment holds ``PATH``,
``HOME``, ``USER``, locale and the few harness variables in ``PASSTHROUGH_ENV``. ``pip
install`` goes to ``.pydeps`` in the workspace (a ``--prefix`` install, importable through
``PYTHONPATH``), so the shared interpreter stays read-only and each run keeps its own packages.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from tools.workspace import Workspace

AGENT_PYTHON_ENV = "SCAFFOLDS_AGENT_PYTHON"
"""Environment variable naming the interpreter for agent code when none is passed."""
AGENT_USER_ENV = "SCAFFOLDS_AGENT_USER"
"""Environment variable naming the agent user when none is passed (``agent`` when unset)."""


def default_agent_user() -> str:
    """``$SCAFFOLDS_AGENT_USER``, else ``agent``. Two runs at once on one machine need two
    users, since closing a sandbox ends every process of its user: a grid gives each run an
    ``agent-g<k>``, the test suite each of its processes one (tests/parallel.py).
    ``scaffolds.config.RunConfig.agent_user`` reads the same variable."""
    return os.environ.get(AGENT_USER_ENV) or "agent"


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


PIP_DIR = ".pydeps"
"""Folder in the workspace root that the agent's ``pip install`` fills (``--prefix`` layout);
the shared interpreter stays read-only."""


def interpreter_prefixes(python: str) -> list[Path]:
    """The folders ``python`` runs from, found without running it: its venv (the folder holding
    ``pyvenv.cfg``), the venv's base installation, and the real binary's prefix."""
    exe = Path(python).absolute()
    found = []
    cfg = exe.parent.parent / "pyvenv.cfg"
    if cfg.is_file():
        found.append(exe.parent.parent)
        for line in cfg.read_text(errors="replace").splitlines():
            key, _, value = line.partition("=")
            if key.strip() == "home" and value.strip():
                found.append(Path(value.strip()).parent)
    found.append(Path(os.path.realpath(exe)).parent.parent)
    return list(dict.fromkeys(found))


def _python_version(python: str) -> str | None:
    for prefix in interpreter_prefixes(python):
        for lib in sorted((prefix / "lib").glob("python3.*")):
            if (lib / "site-packages").is_dir():
                return lib.name.removeprefix("python")
    match = re.fullmatch(r"python(\d+\.\d+)", Path(os.path.realpath(python)).name)
    return match.group(1) if match else None


def pip_site(workspace: Workspace, python: str) -> Path | None:
    """The site-packages folder under ``<workspace>/.pydeps`` for ``python``'s version (None
    when it cannot be told without running it)."""
    version = _python_version(python)
    if version is None:
        return None
    return workspace.root / PIP_DIR / "lib" / f"python{version}" / "site-packages"


def pip_environment(workspace: Workspace, python: str, make: bool = True) -> dict[str, str]:
    """Variables sending ``pip install`` to ``<workspace>/.pydeps``, importable and on PATH.

    The site-packages folder must exist before the kernel starts (Python skips a ``sys.path``
    folder that was missing when it first looked): it is made here, unless ``make`` is False
    (a root harness makes it with ``tools.ownership``, which never follows the agent's links)."""
    prefix = workspace.root / PIP_DIR
    env = {
        "PIP_PREFIX": str(prefix),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PATH": f"{prefix / 'bin'}:{Path(python).parent}:{_SYSTEM_PATH}",
    }
    site = pip_site(workspace, python)
    if site is not None:
        if make:
            site.mkdir(parents=True, exist_ok=True)
        env["PYTHONPATH"] = str(site)
    return env
