"""Shared fixtures: a world-traversable folder for run folders (the agent user must reach its
workspace; pytest's tmp_path is 0700), and AIDE runs driven by the scripted model.

Test modules import nothing from here; they use the fixtures.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from aide_tree import Aide, AideConfig
from scaffolds.messages import ModelResponse
from scaffolds.protocols import Message
from scaffolds.replay import ScriptedModel
from scaffolds.runtime import execute, open_run

TASK = "demo/tabular-binary"


@pytest.fixture
def run_dir(runs_root: Path) -> Path:
    """A fresh, not yet existing run folder (in a folder the agent user may traverse)."""
    parent = Path(tempfile.mkdtemp(dir=runs_root))
    os.chmod(parent, 0o711)
    return parent / "run"


class Script:
    """Plays cassette-shaped records in order and keeps every prompt it was sent."""

    def __init__(self, records: list[dict[str, Any]]):
        self.records = records
        self.prompts: list[list[Message]] = []

    def __call__(self, messages: list[Message], tools: Any) -> ModelResponse | None:
        if len(self.prompts) >= len(self.records):
            return None
        self.prompts.append(messages)
        return ModelResponse.from_record(self.records[len(self.prompts) - 1])


@pytest.fixture
def run_aide(run_dir: Path) -> Callable[..., tuple[str, dict[str, Any], Script, Path]]:
    """``run_aide(records, **config)`` -> (status, grade, script, run folder): one whole run
    in this process, with the real kernel and grader, driven by the records."""

    def run(
        records: list[dict[str, Any]], out: Path | None = None, **options: Any
    ) -> tuple[str, dict[str, Any], Script, Path]:
        script = Script(records)
        config = AideConfig(
            model="scripted", task=options.pop("task", TASK), out=out or run_dir, **options
        )
        run = open_run(config, "aide", model=ScriptedModel(script))
        status, grade = execute(run, lambda r: Aide(r).search())
        return status, grade, script, run.dir

    return run
