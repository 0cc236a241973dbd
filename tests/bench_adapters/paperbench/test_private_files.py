"""The demo paper's rubric and graded tree are private: the task names them (on disk and in the
package), the package's copies are closed to other users, and a run whose agent could read the
rubric is refused before it starts."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from bench_adapters import resolve_task
from bench_adapters.paperbench.demo import checkout_git_dir
from scaffolds import basic
from scaffolds.protocols import HasPrivateFiles
from tests.machine import require

from .task_helpers import DEMO, DEMO_PACKAGE, paper_cache  # noqa: F401


@pytest.fixture(autouse=True)
def root_harness() -> None:
    require(os.geteuid() == 0, "the agent user exists only under a root harness")


def test_the_task_names_its_private_files_and_the_package_copies_are_closed(
    paper_cache: Path,  # noqa: F811
) -> None:
    task = resolve_task(DEMO)
    private = task.private_paths()
    assert task.paper.rubric_path in private and task.paper.rubric_path.is_file()
    for name in ("rubric.json", "judge.addendum.md", "expected_result.json"):
        copy = DEMO_PACKAGE / name
        assert copy in private
        assert copy.stat().st_mode & 0o077 == 0, f"{copy} is readable by other users"
    public = {p.name for p in task.public_dir.rglob("*") if p.is_file()}
    assert "rubric.json" not in public and "judge.addendum.md" not in public
    git_dir = checkout_git_dir(DEMO_PACKAGE)  # `git show HEAD:<rubric>` would read it too
    if git_dir is not None:
        assert git_dir in private and git_dir.stat().st_mode & 0o077 == 0


def test_the_git_folder_of_a_checkout_or_worktree_is_found(tmp_path: Path) -> None:
    package = tmp_path / "main" / "bench_adapters" / "paperbench" / "demo_paper"
    package.mkdir(parents=True)
    assert checkout_git_dir(package) is None
    (tmp_path / "main" / ".git" / "worktrees" / "wt").mkdir(parents=True)
    assert checkout_git_dir(package) == tmp_path / "main" / ".git"
    worktree = tmp_path / "wt"
    (worktree / "bench_adapters").mkdir(parents=True)
    (worktree / ".git").write_text(f"gitdir: {tmp_path}/main/.git/worktrees/wt\n")
    (tmp_path / "main" / ".git" / "worktrees" / "wt" / "commondir").write_text("../..\n")
    assert checkout_git_dir(worktree / "bench_adapters") == tmp_path / "main" / ".git"


def test_a_readable_rubric_refuses_the_run(
    paper_cache: Path,  # noqa: F811
    agent_dir,
    write_cassette,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A data folder every user may read (a shared /data) hands the agent the rubric."""
    installed = resolve_task(DEMO).paper.dir
    data = agent_dir("pb-shared-data-")
    paper = data / "papers" / "rice"
    shutil.copytree(installed, paper)
    for path in [data, *data.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    cassette = write_cassette("pb-guard", [{"content": "nothing"}])
    out = agent_dir("pb-guard-") / "run"
    argv = ["--model", f"replay:{cassette}", "--task", "paperbench/rice", "--data-dir", str(data),
            "--out", str(out), "--sandbox", "user"]  # fmt: skip
    assert basic.main(argv) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "refusing to start" in line and str(paper / "rubric.json") in line
    assert not out.exists()  # a refused run leaves nothing behind to block the rerun
    for name in ("rubric.json", "judge.addendum.md"):
        (paper / name).chmod(0o600)  # the harness reads them as root; the agent cannot
    notes = paper / "judge" / "grading_notes.md"  # upstream's judge-only folder
    notes.parent.mkdir(mode=0o755)
    notes.write_text("Judges: the answer is 0.03.\n")
    notes.chmod(0o644)
    task = resolve_task("paperbench/rice", data_dir=str(data))
    assert isinstance(task, HasPrivateFiles) and paper / "judge" in task.private_paths()
    assert basic.main(argv) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "refusing to start" in line and str(notes) in line
    (paper / "judge").chmod(0o700)
    assert basic.main(argv) == 0
    assert json.loads((out / "run.json").read_text())["answers_exposed"] == []


def test_a_paper_from_a_data_folder_grades_later_from_that_folder(
    paper_cache: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    import shlex

    from bench_adapters.paperbench.replication import grade_command, locate

    data = tmp_path / "my data"
    shutil.copytree(resolve_task(DEMO).paper.dir, data / "papers" / "rice")
    task = resolve_task("paperbench/rice", data_dir=data)
    command = shlex.split(grade_command(task, locate(tmp_path / "sub")))
    assert command[command.index("--data-dir") + 1] == str(data)
    assert command[command.index("--submission") + 1] == str(tmp_path / "sub")
    assert "--data-dir" not in grade_command(resolve_task(DEMO), locate(tmp_path / "sub"))
