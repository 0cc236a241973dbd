"""Shared helpers of the task-half PaperBench tests: a private paper cache, repositories,
cassettes for the agent and the judge.

Import the fixtures you use (``from ...task_helpers import paper_cache``); this folder has no
conftest.py of its own.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench_adapters.paperbench.layout import CACHE_ENV

REPO = Path(__file__).resolve().parents[3]
REFERENCE = REPO.parent / "shared" / "reference" / "paperbench"
DEMO = "paperbench/demo-james-stein"
DEMO_PACKAGE = REPO / "bench_adapters" / "paperbench" / "demo_paper"
REFERENCE_REPO = REPO / "baselines" / "paperbench" / "demo_james_stein_repo"
GIT = ["git", "-c", "user.name=test", "-c", "user.email=test@example.com"]


@pytest.fixture(scope="session")
def paper_cache() -> Iterator[Path]:
    """A fresh PaperBench cache (``$SCAFFOLDS_PAPERBENCH_CACHE``) for the whole session."""
    root = Path(tempfile.mkdtemp(prefix="paperbench-cache-"))
    before = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(root)
    yield root
    if before is None:
        os.environ.pop(CACHE_ENV, None)
    else:
        os.environ[CACHE_ENV] = before
    shutil.rmtree(root, ignore_errors=True)


def git(repo: Path, *args: str) -> str:
    proc = subprocess.run([*GIT, "-C", str(repo), *args], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def make_repo(root: Path, files: dict[str, str], commit: bool = True) -> Path:
    """A git repository at ``root`` holding ``files`` (committed unless told otherwise)."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    git(root, "init", "--quiet")
    if commit:
        git(root, "add", "-A")
        git(root, "commit", "--quiet", "-m", "work")
    return root


def reference_files() -> dict[str, str]:
    """The demo paper's reference submission (the baseline's repository)."""
    return {p.name: p.read_text() for p in sorted(REFERENCE_REPO.iterdir()) if p.is_file()}


def rubric_requirements() -> list[str]:
    """Every requirement text of the demo rubric (none may reach the agent)."""
    rubric = json.loads((DEMO_PACKAGE / "rubric.json").read_text())

    def walk(node: dict[str, Any]) -> Iterator[str]:
        yield node["requirements"]
        for child in node["sub_tasks"]:
            yield from walk(child)

    return list(walk(rubric))


def human_grades() -> list[int]:
    """The human grades of the demo's reference submission, in leaf order."""
    tree = json.loads((DEMO_PACKAGE / "expected_result.json").read_text())

    def leaves(node: dict[str, Any]) -> Iterator[int]:
        if not node["sub_tasks"]:
            yield int(node["score"])
        for child in node["sub_tasks"]:
            yield from leaves(child)

    return list(leaves(tree))


def human_root_score() -> float:
    return float(json.loads((DEMO_PACKAGE / "expected_result.json").read_text())["score"])


def tool_call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


def write_replies(path: Path, replies: list[list[dict[str, Any]]]) -> Path:
    """An agent cassette: one assistant message per step, calling the given tools."""
    lines = [
        json.dumps({"role": "assistant", "content": f"step {i + 1}", "tool_calls": calls})
        for i, calls in enumerate(replies)
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def write_verdicts(path: Path, scores: list[int]) -> Path:
    """A judge cassette: one forced ``submit_verdict`` call per leaf, in leaf order."""
    lines = []
    for i, score in enumerate(scores):
        args = {"expectations": "as the paper says", "reality": f"leaf {i}", "score": score}
        call = {"id": f"v{i}", "type": "function"}
        call["function"] = {"name": "submit_verdict", "arguments": json.dumps(args)}
        lines.append(json.dumps({"role": "assistant", "content": None, "tool_calls": [call]}))
    path.write_text("\n".join(lines) + "\n")
    return path


def replication_steps(extra: list[list[dict[str, Any]]] | None = None) -> list[list[dict]]:
    """An agent that reads the paper, writes the reference repository and commits it."""
    files = reference_files()
    steps = [
        [tool_call("bash", command="head -n 3 data/paper/paper.md && ls data/paper")],
        [
            tool_call(
                "bash",
                command="cd submission && git init -q && git config user.name a "
                "&& git config user.email a@example.com",
            )
        ],
        [
            tool_call("create", path=f"submission/{name}", file_text=text)
            for name, text in files.items()
        ],
        [tool_call("bash", command="cd submission && git add -A && git commit -qm replicate")],
        [tool_call("validate_submission")],
    ]
    return steps + (extra or [])


def run_cli(module: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``python -m MODULE ARGS`` in a fresh process (inheriting the cache variable)."""
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=timeout,
    )
