"""The interfaces between the suite's parts, declared once.

Implementations never inherit these; they only match them (structural typing).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from scaffolds.messages import ModelResponse

Message = dict[str, Any]
"""One chat message in the OpenAI shape: role, content, optional tool_calls / tool_call_id."""


@runtime_checkable
class Model(Protocol):
    """Anything that turns a conversation into the next assistant message."""

    name: str

    def complete(
        self,
        messages: list[Message],
        tools: list[dict[str, Any]] | None = None,
        tool_choice: str | dict[str, Any] | None = None,
    ) -> ModelResponse: ...


@runtime_checkable
class Task(Protocol):
    """One benchmark task, as every scaffold and grader sees it.

    Private answers and graders stay behind `validate` and `grade`; the agent only ever
    receives `instructions(...)` and a copy of `public_dir`.

    Optional: ``private_paths() -> list[Path]`` (see ``HasPrivateFiles``) names the files and
    folders on disk the agent must never read (answers, test labels, rubrics, reference
    solutions). Before a run the harness checks, as the agent user, that it can read none of
    them, and refuses to start otherwise.
    """

    id: str
    """Full reference, e.g. ``mlebench/spaceship-titanic`` or ``demo/iris``."""
    benchmark: str
    public_dir: Path
    submission_relpath: str
    """Where the agent must write its submission, relative to the workspace (``submission/submission.csv``)."""
    is_lower_better: bool
    """The metric's direction, fixed once per task from its grader."""

    def instructions(self, *, hardware: str, time_limit_s: float, max_steps: int | None) -> str:
        """The full text the agent is given, with hardware and limits filled in."""
        ...

    def validate(self, path: Path) -> tuple[bool, str]:
        """Format check only: never a score, never an exception for a bad file."""
        ...

    def grade(self, path: Path) -> dict[str, Any]:
        """The benchmark's native report plus ``normalized_reward`` in [0, 1]."""
        ...


@runtime_checkable
class HasPrivateFiles(Protocol):
    """A task that names its private files, so that the harness can check they are protected."""

    def private_paths(self) -> list[Path]:
        """Files and folders, as they lie on disk, that the agent must never read: answers,
        test labels, rubrics. Package code is not private and is not listed."""
        ...
