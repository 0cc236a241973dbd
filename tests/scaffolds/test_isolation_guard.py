"""Isolation checks its own premise: a run whose agent user could read the task's answers or
another run's folder is refused before it starts, unless the user says so, and then run.json
records it. Real runs of ``python -m scaffolds.basic`` on the demo task (and one on a TAM task),
replayed model."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bench_adapters import resolve_task
from scaffolds import basic
from scaffolds.protocols import HasPrivateFiles
from tests.machine import require
from tools.namespace import bwrap_path, namespace_problem

pytestmark = pytest.mark.usefixtures("root_harness")
TASK = "demo/tabular-binary"


@pytest.fixture(scope="module")
def root_harness() -> None:
    if os.geteuid() != 0:
        require(False, "the agent user exists only under a root harness")


@pytest.fixture(scope="module")
def generated(agent_dir: Callable[[str], Path]) -> Path:
    """The demo cache, generated once, in a folder every user may traverse."""
    root = agent_dir("guard-demo-")
    resolve_task(TASK, demo_dir=root)
    return root


@pytest.fixture
def demo(
    generated: Path, agent_dir: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> Path:
    """A fresh copy of that cache (modes kept), used by the runs; returns the task's folder."""
    root = agent_dir("guard-demo-copy-") / "cache"
    shutil.copytree(generated, root)
    monkeypatch.setenv("SCAFFOLDS_DEMO_DIR", str(root))
    return resolve_task(TASK).prepared_dir.parent


@pytest.fixture
def run(
    agent_dir: Callable[[str], Path],
    write_cassette: Callable[[str, list[dict[str, Any]]], Path],
    capsys: pytest.CaptureFixture[str],
) -> Callable[..., tuple[int, str, dict[str, Any] | None]]:
    """``run(*flags)``: one replayed basic run in a fresh runs folder: (exit code, stderr,
    run.json or None)."""
    runs = agent_dir("guard-runs-")
    cassette = write_cassette("guard", [{"content": "Nothing to do."}])

    def go(
        *flags: str, name: str = "mine", task: str = TASK
    ) -> tuple[int, str, dict[str, Any] | None]:
        out = runs / name
        argv = ["--model", f"replay:{cassette}", "--task", task, "--out", str(out), *flags]
        code = basic.main(argv)
        record = out / "run.json"
        summary = json.loads(record.read_text()) if record.exists() else None
        return code, capsys.readouterr().err, summary

    go.runs = runs  # type: ignore[attr-defined]
    return go


def expose(folder: Path) -> Path:
    """Make the demo task's folder readable by every user, as a shared /data would be."""
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return folder / "prepared" / "private"


def test_bundled_demo_answers_live_in_the_private_cache_not_the_package(demo: Path) -> None:
    task = resolve_task(TASK)
    (private,) = task.private_paths()
    package = Path(__import__("bench_adapters").__file__).parent
    assert private.is_relative_to(demo) and not private.is_relative_to(package)
    assert not list(package.rglob("test.csv"))  # the answers are generated, never shipped
    assert demo.stat().st_mode & 0o077 == 0  # the cache keeps each task folder 0700


def test_readable_answers_are_refused_in_one_line_naming_the_path_and_fix(
    demo: Path, run: Callable[..., tuple[int, str, dict[str, Any] | None]]
) -> None:
    private = expose(demo)
    code, err, summary = run("--sandbox", "user")
    assert code == 2 and summary is None
    (line,) = err.strip().splitlines()
    assert "refusing to start" in line and str(private / "test.csv") in line
    assert f"chmod o-rx {private}" in line and "--allow-exposed-answers" in line


def test_the_override_runs_and_run_json_records_the_exposure(
    demo: Path, run: Callable[..., tuple[int, str, dict[str, Any] | None]]
) -> None:
    private = expose(demo)
    code, err, summary = run("--sandbox", "user", "--allow-exposed-answers")
    assert code == 0, err
    assert summary is not None and summary["sandbox"]["backend"] == "user"
    assert summary["answers_exposed"] == [
        {"path": str(private / "test.csv"), "under": str(private), "kind": "private"}
    ]


def test_a_protected_data_folder_runs(
    demo: Path, run: Callable[..., tuple[int, str, dict[str, Any] | None]]
) -> None:
    private = expose(demo)
    private.chmod(0o750)  # the fix the refusal names
    code, err, summary = run("--sandbox", "user")
    assert code == 0, err
    assert summary is not None and summary["answers_exposed"] == []


def test_another_runs_readable_folder_is_refused(
    demo: Path, run: Callable[..., tuple[int, str, dict[str, Any] | None]]
) -> None:
    other = run.runs / "other"  # type: ignore[attr-defined]
    (other / "submission").mkdir(parents=True)
    (other / "run.json").write_text("{}")
    (other / "submission" / "submission.csv").write_text("id,target\n")
    other.chmod(0o711)  # not listable, but its files' names are known
    code, err, _ = run("--sandbox", "user")
    assert code == 2 and "another run's folder" in err and f"chmod 700 {other}" in err
    other.chmod(0o700)
    assert run("--sandbox", "user", name="again")[0] == 0


def test_the_namespace_sandbox_keeps_exposed_answers_out_of_view(
    demo: Path, run: Callable[..., tuple[int, str, dict[str, Any] | None]], agent_user: str
) -> None:
    problem = namespace_problem(bwrap_path())
    if problem is not None:
        require(False, f"the namespace sandbox is unavailable: {problem}")
    expose(demo)
    code, err, summary = run()
    assert code == 0, err
    assert summary is not None and summary["answers_exposed"] == []
    assert summary["sandbox"] == {"backend": "namespace", "network": "on", "user": agent_user}
    assert "namespace sandbox" in summary["isolation"]


def test_tam_answers_are_guarded_and_synthetic_data_is_protected_by_default(
    agent_dir: Callable[[str], Path], run: Callable[..., tuple[int, str, dict[str, Any] | None]]
) -> None:
    from bench_adapters.tam.synthetic import make_prepared

    root = agent_dir("guard-tam-")
    private = make_prepared("tabular/medium", root) / "private"
    task = resolve_task("tam/tabular/medium", data_dir=root)
    assert isinstance(task, HasPrivateFiles) and task.private_paths() == [private]
    tam = ("--sandbox", "user", "--data-dir", str(root))
    code, err, summary = run(*tam, name="tam-protected", task="tam/tabular/medium")
    assert code == 0, err
    assert summary is not None and summary["answers_exposed"] == []
    expose(root / "tabular" / "medium")  # a shared, world-readable copy of the data
    code, err, summary = run(*tam, name="tam-exposed", task="tam/tabular/medium")
    assert code == 2 and summary is None
    (line,) = err.strip().splitlines()
    assert str(private / "test_labels.csv") in line and f"chmod o-rx {private}" in line
