"""Fixtures: real IterativeAgent runs on the demo task, with a real kernel and the scripted or
replay model that ships in ``scaffolds``.

Run folders live under a world-traversable temporary directory (pytest's tmp_path is 0700, which
the agent user could not enter). Test modules import nothing from here; they use the fixtures.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from basic_agent import BasicConfig
from iterative_agent import IterativeAgent
from scaffolds.protocols import Model
from scaffolds.runtime import Run, execute, open_run

TASK = "demo/tabular-binary"


@pytest.fixture(scope="session")
def runs_root() -> Iterator[Path]:
    root = Path(tempfile.mkdtemp(prefix="iterative-agent-test-"))
    os.chmod(root, 0o755)
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def call() -> Callable[..., dict[str, Any]]:
    """``call("python", code="print(1)")``: one tool call in the OpenAI shape."""

    def make(name: str, **arguments: Any) -> dict[str, Any]:
        return {"type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}

    return make


@pytest.fixture(scope="session")
def run_agent(runs_root: Path) -> Callable[..., tuple[Run, str, dict[str, Any]]]:
    """Run IterativeAgent on the demo task to its end: ``(run, status, grade)``. ``model`` is a
    model object or a model string (``replay:FILE``); ``options`` are config fields."""
    counter = iter(range(10**6))

    def run(model: Model | str, **options: Any) -> tuple[Run, str, dict[str, Any]]:
        name = model if isinstance(model, str) else model.name
        options.setdefault("out", runs_root / f"run-{next(counter)}")
        config = BasicConfig(task=TASK, model=name, **options)
        opened = open_run(config, "iterative", None if isinstance(model, str) else model)
        status, grade = execute(opened, IterativeAgent(config))
        return opened, status, grade

    return run


@pytest.fixture(scope="session")
def events() -> Callable[[Run, str], list[dict[str, Any]]]:
    """The run's trajectory events of one kind."""

    def of_kind(run: Run, kind: str) -> list[dict[str, Any]]:
        return [e for e in run.record.events() if e["kind"] == kind]

    return of_kind
