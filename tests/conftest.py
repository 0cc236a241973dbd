"""Fixtures shared across the test folders.

Folders the agent user must enter live under world-traversable temporary directories: pytest's
``tmp_path`` is 0700, which that user could not pass through.
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

from scaffolds.protocols import Model
from scaffolds.runtime import Run, execute, open_run

DEMO_TASK = "demo/tabular-binary"
LOCAL_WINDOW = 2048


@pytest.fixture(scope="session")
def agent_dir() -> Iterator[Callable[[str], Path]]:
    """``agent_dir("prefix-")``: a new temporary folder the agent user can pass through."""
    made: list[Path] = []

    def make(prefix: str) -> Path:
        path = Path(tempfile.mkdtemp(prefix=prefix))
        os.chmod(path, 0o755)
        made.append(path)
        return path

    yield make
    for path in made:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def local_model() -> Iterator[Callable[..., Model]]:
    """``local_model(max_tokens=...)``: a litellm client of the real local model (llama.cpp +
    SmolLM2-135M over HTTP); one server serves the whole session."""
    from scaffolds.local_llm import LocalLLM
    from scaffolds.model import LiteLLMModel, ModelConfig

    with LocalLLM.start(n_ctx=LOCAL_WINDOW) as llm:

        def make(max_tokens: int, **options: Any) -> Model:
            settings = {"temperature": 0.0, "request_timeout_s": 300, "max_attempts": 2, **options}
            return LiteLLMModel(
                ModelConfig(
                    model=llm.model,
                    api_base=llm.api_base,
                    context_window=LOCAL_WINDOW,
                    max_output_tokens=max_tokens,
                    **settings,
                ),
                watch=llm,
            )

        yield make


@pytest.fixture(scope="session")
def call() -> Callable[..., dict[str, Any]]:
    """``call("python", code="print(1)")``: one tool call in the OpenAI shape (``raw=`` for
    arguments that are not a JSON object)."""

    def make(name: str, raw: str | None = None, **arguments: Any) -> dict[str, Any]:
        args = raw if raw is not None else json.dumps(arguments)
        return {"type": "function", "function": {"name": name, "arguments": args}}

    return make


@pytest.fixture(scope="session")
def runs_root(agent_dir: Callable[[str], Path]) -> Path:
    return agent_dir("scaffold-runs-")


@pytest.fixture(scope="session")
def write_cassette(runs_root: Path) -> Callable[[str, list[dict[str, Any]]], Path]:
    """Write assistant replies (``{"content": ..., "tool_calls": [...]}``) as a replay file."""

    def write(name: str, replies: list[dict[str, Any]]) -> Path:
        path = runs_root / f"{name}.jsonl"
        lines = [json.dumps({"role": "assistant", "content": None, **r}) for r in replies]
        path.write_text("\n".join(lines) + "\n")
        return path

    return write


@pytest.fixture(scope="session")
def run_scaffold(runs_root: Path) -> Callable[..., tuple[Run, str, dict[str, Any]]]:
    """``run_scaffold(Agent, ConfigCls, name, model, **options)``: one run on the demo task to
    its end, as ``(run, status, grade)``. ``model`` is a model object or a model string."""
    counter = iter(range(10**6))

    def run(
        agent: Callable[[Any], Any],
        config_cls: type[Any],
        name: str,
        model: Model | str,
        **options: Any,
    ) -> tuple[Run, str, dict[str, Any]]:
        model_name = model if isinstance(model, str) else model.name
        options.setdefault("out", runs_root / f"run-{next(counter)}")
        options.setdefault("task", DEMO_TASK)
        config = config_cls(model=model_name, **options)
        opened = open_run(config, name, None if isinstance(model, str) else model)
        status, grade = execute(opened, agent(config))
        return opened, status, grade

    return run


@pytest.fixture(scope="session")
def events() -> Callable[[Run, str], list[dict[str, Any]]]:
    """The run's trajectory events of one kind."""

    def of_kind(run: Run, kind: str) -> list[dict[str, Any]]:
        return [e for e in run.record.events() if e["kind"] == kind]

    return of_kind
