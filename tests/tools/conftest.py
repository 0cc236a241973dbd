"""Shared fixtures: real workspaces, a real agent user, real kernels.

Workspaces live under a world-traversable temporary directory (pytest's own tmp_path is 0700,
which the agent user could not enter). One kernel is shared per test module. Test modules
import nothing from here (several conftest.py files coexist in tests/); they use fixtures.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.machine import require
from tools import PythonKernel, Sandbox, Toolset, Workspace

SECRET = "PRIVATE-ANSWER-7f3c9e"
"""Content of the root-only answers file; it must never reach an observation."""


@pytest.fixture(scope="session")
def secret() -> str:
    return SECRET


@pytest.fixture(scope="session")
def validator() -> Callable[[Path], tuple[bool, str]]:
    return csv_validator


@pytest.fixture(scope="session")
def as_root() -> None:
    """Skips (visibly) a test of isolation when the suite does not run as root."""
    require(os.geteuid() == 0, "isolation needs a root harness")


def csv_validator(path: Path) -> tuple[bool, str]:
    """A real task validator: a CSV with header ``id,target`` and at least one row."""
    lines = path.read_text(errors="replace").splitlines()
    if not lines or lines[0].strip() != "id,target":
        return False, "the header must be exactly 'id,target'"
    if len(lines) < 2:
        return False, "there are no rows"
    return True, f"{len(lines) - 1} rows"


@pytest.fixture(scope="session")
def shared_root(agent_dir: Callable[[str], Path]) -> Path:
    return agent_dir("scaffolds-tools-test-")


@pytest.fixture(scope="session")
def public_dir(shared_root: Path) -> Path:
    public = shared_root / "public"
    (public / "images").mkdir(parents=True)
    (public / "train.csv").write_text("id,feature,target\n1,0.5,0\n2,0.7,1\n")
    (public / "test.csv").write_text("id,feature\n3,0.1\n")
    (public / "images" / "a.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    return public


@pytest.fixture(scope="session")
def private_answers(shared_root: Path) -> Path:
    """A root-only answers file, as a grader keeps it."""
    private = shared_root / "private"
    private.mkdir(mode=0o700)
    answers = private / "answers.csv"
    answers.write_text(f"id,target\n3,{SECRET}\n")
    answers.chmod(0o600)
    return answers


@pytest.fixture(scope="session")
def root_only_file(shared_root: Path) -> Path:
    """A root-only file in a directory the agent may list (so only the file is protected)."""
    path = shared_root / "root_only.csv"
    path.write_text(f"id,target\n3,{SECRET}\n")
    path.chmod(0o600)
    return path


@pytest.fixture(scope="module")
def workspace(shared_root: Path, public_dir: Path, request: pytest.FixtureRequest) -> Workspace:
    return Workspace.create(shared_root / f"ws-{request.module.__name__}", public_dir)


@pytest.fixture(scope="module")
def sandbox(workspace: Workspace) -> Iterator[Sandbox]:
    """The default sandbox: the namespace one where bwrap works (as root), else user-based."""
    with Sandbox.create(workspace) as box:
        yield box


@pytest.fixture(scope="module")
def kernel(sandbox: Sandbox, workspace: Workspace) -> Iterator[PythonKernel]:
    with PythonKernel(sandbox, workspace.root, interrupt_grace_s=2.0) as k:
        yield k


@pytest.fixture(scope="module")
def toolset(workspace: Workspace, sandbox: Sandbox, kernel: PythonKernel) -> Toolset:
    return Toolset.standard(
        workspace,
        sandbox,
        kernel,
        validate=csv_validator,
        submission_relpath="submission/submission.csv",
        time_left=lambda: 3600.0,
        tool_timeout_s=60.0,
    )
