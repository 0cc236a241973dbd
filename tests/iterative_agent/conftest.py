"""IterativeAgent runs on the demo task, with a real kernel and the scripted or replay model."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from basic_agent import BasicConfig
from iterative_agent import IterativeAgent
from scaffolds.protocols import Model
from scaffolds.runtime import Run


@pytest.fixture(scope="session")
def run_agent(run_scaffold: Callable[..., Any]) -> Callable[..., tuple[Run, str, dict[str, Any]]]:
    """Run IterativeAgent to its end: ``(run, status, grade)``."""

    def run(model: Model | str, **options: Any) -> tuple[Run, str, dict[str, Any]]:
        return run_scaffold(IterativeAgent, BasicConfig, "iterative", model, **options)

    return run
