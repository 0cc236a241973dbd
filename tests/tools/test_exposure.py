"""The exposure check asks the agent user about every private file by name, so a folder it may
enter but not list (0711) is caught: ``cat private/test.csv`` works there without a listing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tools import Sandbox, Workspace
from tools.bash import run_bash
from tools.exposure import readable_by_agent

pytestmark = pytest.mark.usefixtures("as_root")


@pytest.fixture(scope="module")
def box(shared_root: Path) -> Iterator[Sandbox]:
    """The user-based sandbox: the one whose safety rests on these permissions."""
    with Sandbox.create(Workspace.create(shared_root / "exposure-ws", None), backend="user") as b:
        yield b


@pytest.fixture
def private(agent_dir: Callable[[str], Path], secret: str) -> Path:
    """A private folder the agent may enter but not list, holding a readable file, and a
    closed subfolder holding another."""
    folder = agent_dir("scaffolds-exposure-") / "private"
    (folder / "closed").mkdir(parents=True)
    for path in (folder / "test.csv", folder / "closed" / "labels.csv"):
        path.write_text(f"id,target\n3,{secret}\n")
        path.chmod(0o644)
    (folder / "closed").chmod(0o700)
    folder.chmod(0o711)
    return folder


def test_a_folder_the_agent_can_enter_but_not_list_is_refused(
    box: Sandbox, private: Path, secret: str
) -> None:
    out = run_bash(box, f"ls {private}; cat {private}/test.csv", Path("/"), 10).output
    assert "Permission denied" in out and secret in out  # the premise: no listing, yet a read
    (found,) = readable_by_agent(box, [private])
    assert (found.path, found.under, found.kind) == (private / "test.csv", private, "private")
    assert found.fix == f"chmod o-rx {private}"


def test_files_the_agent_cannot_open_pass_and_a_deeper_open_one_is_found(
    box: Sandbox, private: Path
) -> None:
    (private / "test.csv").chmod(0o600)
    assert readable_by_agent(box, [private]) == []
    (private / "closed").chmod(0o711)
    (found,) = readable_by_agent(box, [private, private / "test.csv"])
    assert found.path == private / "closed" / "labels.csv"
