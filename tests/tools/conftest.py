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


@pytest.fixture
def tampered_resume(agent_dir: Callable[[str], Path], secret: str) -> Callable[[str], None]:
    """``tampered_resume(backend)`` checks a resume after the agent swapped its folders for
    links to root-only folders (and the harness found a hard link to a root-only file among
    them): nothing of root's is handed over or followed, nothing of the agent's is lost."""
    from tools.bash import run_bash

    def go(backend: str) -> None:
        root = agent_dir("scaffolds-tamper-")
        vaults = [root / "vault", root / "pip-vault"]
        for vault in vaults:
            vault.mkdir(mode=0o700)
            (vault / "answers.csv").write_text(f"id,target\n3,{secret}\n")
            (vault / "answers.csv").chmod(0o600)
        hard = root / "root-file.csv"
        hard.write_text(secret)
        hard.chmod(0o600)
        ws = Workspace.create(root / "run" / "workspace", None)
        with Sandbox.create(ws, backend=backend) as box:
            tamper = (
                f"echo mine > submission/kept.csv && mv submission old && "
                f"ln -s {vaults[0]} submission && mv .pydeps old-pydeps && "
                f"ln -s {vaults[1]} .pydeps && mv code old-code && echo notes > code && "
                f"ln -s {vaults[0]} working/link && echo DONE"
            )
            assert run_bash(box, tamper, ws.root, 30).output == "DONE\n"
        os.link(hard, ws.working / "hard.csv")  # what fs.protected_hardlinks=0 would allow
        with Sandbox.create(Workspace.open(ws.root), backend=backend) as box:
            look = f"cat submission/answers.csv {vaults[0]}/answers.csv working/hard.csv"
            seen = run_bash(box, f"{look}; cat old/kept.csv code.not-a-folder", ws.root, 30)
        for vault in vaults:
            assert vault.stat().st_uid == 0 and vault.stat().st_mode & 0o777 == 0o700
            assert [p.name for p in vault.iterdir()] == ["answers.csv"]  # nothing made inside
            assert (vault / "answers.csv").stat().st_uid == 0
        assert hard.stat().st_uid == 0
        assert secret not in seen.output and "mine\nnotes\n" in seen.output  # the agent's, kept
        for folder in (ws.submission, ws.code, ws.root / ".pydeps"):
            assert not folder.is_symlink() and folder.stat().st_uid == box.uid
        assert f"{ws.submission} was a link to {vaults[0]}" in box.note
        assert "renamed it to code.not-a-folder" in box.note

    return go


@pytest.fixture
def swapped_connection_file(agent_dir: Callable[[str], Path]) -> Callable[[str], None]:
    """``swapped_connection_file(backend)`` checks a kernel whose code swaps its connection file
    for a link to a root-only file (or overwrites it), then dies: the harness restarts it and
    neither hands the file over nor crashes."""

    def go(backend: str) -> None:
        root = agent_dir("scaffolds-kernel-file-")
        target = root / "root-only.txt"
        target.write_text("root's")
        target.chmod(0o600)
        attack = (
            "import os, sys\nfrom ipykernel.connect import get_connection_file\n"
            "p = get_connection_file()\n"
            f"for step in (lambda: os.remove(p), lambda: os.symlink({str(target)!r}, p), "
            "lambda: open(p, 'w').write('not json')):\n"
            "    try: step()\n    except OSError as e: print(type(e).__name__)\n"
            "sys.stdout.flush(); os._exit(1)"
        )
        ws = Workspace.create(root / "ws", None)
        with Sandbox.create(ws, backend=backend) as box, PythonKernel(box, ws.root) as kernel:
            kernel.execute(attack, 30)
            out = kernel.execute("from ipykernel.connect import get_connection_file as f\n"
                                 "print(f())", 30).output  # fmt: skip
            connection = Path(out.strip())
            assert connection.name == "kernel.json", out
            assert not connection.is_symlink() and connection.stat().st_uid == 0
            assert kernel.execute("1 + 1", 30).output == "2\n"
        assert target.stat().st_uid == 0 and target.read_text() == "root's"

    return go
