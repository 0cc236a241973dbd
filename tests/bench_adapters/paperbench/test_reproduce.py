"""Reproduction: a fresh copy, reproduce.sh as the agent user, the log, the changed files."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from bench_adapters.paperbench.cli import main
from bench_adapters.paperbench.demo import demo_data_dir
from bench_adapters.paperbench.reproduce import LOG, TIMESTAMP, Reproduction, reproduce
from tests.bench_adapters.paperbench.task_helpers import (
    git,
    make_repo,
    paper_cache,
    reference_files,
    rubric_requirements,
    run_cli,
)

__all__ = ["paper_cache"]

AS_ROOT = os.geteuid() == 0


def test_reference_submission_reproduces_as_the_agent(
    agent_dir: Callable[[str], Path], agent_user: str
) -> None:
    files = {
        **reference_files(),
        "reproduce.sh": "set -e\nid -un > whoami.txt\necho old > existing.txt\n"
        "python3 simulate.py --out results\n",
        "existing.txt": "before\n",
        "untouched.txt": "same\n",
        "venv/bin/python": "a venv is never copied\n",
        ".venv/x": "nor this\n",
    }
    root = agent_dir("repro-")
    repo = make_repo(root / "sub", files)
    result = reproduce(repo, root / "out", timeout_s=120)
    assert result.succeeded and not result.timed_out, result.log()
    copy = Path(result.submission)
    assert copy.parent == root / "out" / "workspace" and copy != repo
    assert not (copy / "venv").exists() and not (copy / ".venv").exists()
    assert int((root / "out" / TIMESTAMP).read_text()) > 0  # beside the copy, never in it
    assert not (copy / TIMESTAMP).exists()
    assert "wrote results/risks.csv" in result.log()
    assert (copy / LOG).read_text() == result.log()  # tee'd inside the copy too
    assert set(result.created) == {"whoami.txt", "results/risks.csv", "results/table1.md",
                                   "results/table2.md"}  # fmt: skip
    assert result.changed == ["existing.txt"]
    assert "untouched.txt" not in result.changed_files
    if AS_ROOT:
        assert (copy / "whoami.txt").read_text().strip() == agent_user
        assert "isolation on" in result.isolation
    assert Reproduction.load(root / "out") == result
    assert (repo / "existing.txt").read_text() == "before\n"  # the original is untouched


def test_reproduce_sh_cannot_read_the_rubric(
    agent_dir: Callable[[str], Path], paper_cache: Path
) -> None:
    rubric = demo_data_dir() / "papers" / "demo-james-stein" / "rubric.json"
    assert rubric.is_file()
    script = f"cat {rubric}; echo cat-exit=$?; ls {rubric.parent}; echo ls-exit=$?\n"
    root = agent_dir("repro-")
    result = reproduce(make_repo(root / "sub", {"reproduce.sh": script}), root / "out", 60)
    log = result.log()
    assert "cat-exit=1" in log and "ls-exit=2" in log
    assert not [r for r in rubric_requirements() if r in log]
    assert '"requirements"' not in log


def test_missing_script_is_logged_and_a_timeout_kills_the_group(
    agent_dir: Callable[[str], Path],
) -> None:
    root = agent_dir("repro-")
    result = reproduce(make_repo(root / "a", {"README.md": "x"}), root / "out-a", 60)
    assert not result.script_found and "reproduce.sh not found" in result.log()
    assert result.exit_code is None and not result.succeeded
    script = "echo started\n(sleep 120; echo late > late.txt) &\nsleep 120\n"
    result = reproduce(make_repo(root / "b", {"reproduce.sh": script}), root / "out-b", 2)
    assert result.timed_out and result.exit_code is None and result.duration_s < 30
    assert "started" in result.log() and "timed out after 2s" in result.log()
    assert not (Path(result.submission) / "late.txt").exists()


def test_reproduce_cli_from_a_bundle(agent_dir: Callable[[str], Path]) -> None:
    root = agent_dir("repro-cli-")
    repo = make_repo(root / "sub", {"reproduce.sh": "echo hello > out.txt\n", "README.md": "x"})
    (repo / "uncommitted.txt").write_text("lost\n")
    git(repo, "bundle", "create", str(root / "sub.bundle"), "--all")
    done = run_cli(
        "bench_adapters.paperbench", "reproduce", "--submission", str(root / "sub.bundle"),
        "--out", str(root / "out"), "--timeout", "1m", "--quiet",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "exit code 0" in done.stdout and "1 file(s) created" in done.stdout
    record = json.loads((root / "out" / "reproduction.json").read_text())
    assert record["created"] == ["out.txt"]
    assert not (root / "out" / "workspace" / "submission" / "uncommitted.txt").exists()
    done = run_cli(
        "bench_adapters.paperbench", "reproduce", "--submission", str(repo), "--out",
        str(root / "out"),
    )  # fmt: skip
    assert done.returncode == 2 and "already holds files" in done.stderr
    failing = make_repo(root / "fail", {"reproduce.sh": "exit 3\n"})
    done = run_cli("bench_adapters.paperbench", "reproduce", "--submission", str(failing),
                   "--out", str(root / "out-fail"))  # fmt: skip
    assert done.returncode == 1 and "exit code 3" in done.stdout


@pytest.mark.parametrize("bad", ["--timeout=0", "--timeout=soon"])
def test_reproduce_cli_bad_timeout(
    bad: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["reproduce", "--submission", str(tmp_path), "--out", str(tmp_path / "o"), bad]
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2 and len(capsys.readouterr().err.strip().splitlines()) == 1
