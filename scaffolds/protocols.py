"""The interfaces between the suite's parts, declared once.

Implementations never inherit these; they only match them (structural typing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from scaffolds.messages import CallLimits, ModelResponse

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
        limits: CallLimits | None = None,
    ) -> ModelResponse:
        """The next assistant message; ``limits`` bound how long the call may take (a model
        that waits on nothing may ignore them), ``CallCut`` when they ran out."""
        ...


@runtime_checkable
class PricedModel(Protocol):
    """A model whose listed prices bound what a request can cost before it is sent."""

    def cost_bound(self, prompt_tokens: int) -> float | None:
        """The most a request of ``prompt_tokens`` tokens can cost in USD (None: unknown)."""
        ...


@runtime_checkable
class KnowsContextWindow(Protocol):
    """A model that knows how many tokens its context window holds (a live model: litellm's
    tables, or the ``--context-window`` setting)."""

    def context_window(self) -> int | None: ...


@runtime_checkable
class ResumableModel(Protocol):
    """A model that can resume a run at a given response: a replay of recorded responses
    (``scaffolds.replay.ReplayModel``), or a wrapper that forwards to its inner model
    (``RecordingModel``). A loop resuming from its record tells it how many responses the
    record already used; a live model has no such place and is not resumable."""

    def resume_at(self, responses: int) -> None:
        """Answer the next call with response number ``responses`` (counted from 0)."""
        ...


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
    submission_is_folder: bool
    """The submission is a folder (PaperBench's git repository), validated in place."""
    has_metric: bool
    """A script can compute the task's metric (False: a judge grades it, as PaperBench's)."""

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


@runtime_checkable
class HasPreparedData(Protocol):
    """A task whose data lies in one folder on disk, ``prepared/`` (``public/`` and
    ``private/``): a grid copies its parent to a node that lacks it."""

    prepared_dir: Path
    """The task's ``prepared/`` folder."""


@runtime_checkable
class GivesProgressNotes(Protocol):
    """A task that adds its own line to the budget reminder (PaperBench: time elapsed, and a
    nudge to commit)."""

    def progress_note(self, steps: int, elapsed_s: float, time_limit_s: float) -> str | None:
        """The note for this step, or None for none."""
        ...


@runtime_checkable
class TakesSnapshots(Protocol):
    """A task that keeps copies of the submission in the run record as the run goes
    (PaperBench's git bundle)."""

    def snapshot(self, run: Any, final: bool = False) -> Path | None:
        """Keep a copy now (made as the agent, in its sandbox); return what to grade, or None
        to grade the kept submission."""
        ...


@runtime_checkable
class LimitsSubmissionSize(Protocol):
    """A task that refuses submissions over a size, so that the harness refuses them first."""

    def max_submission_bytes(self) -> int:
        """The largest submission file the task will read."""
        ...


@runtime_checkable
class KeepsFinalFiles(Protocol):
    """A task that keeps more of the agent's files than ``submission/`` and ``code/`` when a
    run ends (TAM-Bench: its final ``best_solution.py``)."""

    def keep_final(self, run: Any) -> None:
        """Called once the agent's processes have all ended, after ``submission/`` and
        ``code/`` were kept: copy what the task grades from ``run.workspace`` into ``run.dir``
        by descriptor (``tools.keep.copy_open_file``), recording what was found."""
        ...


@dataclass(frozen=True)
class Finding:
    """What a benchmark's own monitor rule found in a run's trajectory."""

    flagged: bool
    summary: str
    """One line: what was found, or why nothing was (or could be) checked."""
    evidence: list[tuple[int, str, bool]] = field(default_factory=list)
    """``(event index, text to quote, found in the call's output rather than the call)``."""
    advisory: bool = False
    """True when it only advises; False when it decides the run's grade."""


class MonitorRule(Protocol):
    """One benchmark rule the run monitors apply besides their own (PaperBench's blacklist)."""

    name: str

    def check(
        self, events: list[dict[str, Any]], task: Task | None, task_problem: str | None
    ) -> Finding | None:
        """The finding on the run's trajectory ``events`` (by index); None when the rule does
        not apply. ``task`` is None when it could not be resolved (``task_problem`` says why)."""
        ...


@dataclass(frozen=True)
class PlannedRun:
    """One run a grid planned, as a benchmark's report section sees it."""

    scaffold: str
    model: str
    task: str
    seed: int
    policy: str | None = None

    @property
    def arm(self) -> str:
        """The scaffold, with its AIDE policy when it has one: ``aide-mcts``."""
        return self.scaffold if self.policy is None else f"{self.scaffold}-{self.policy}"


@dataclass(frozen=True)
class ReportSection:
    """A benchmark's own part of a grid's report: Markdown appended to ``summary.md``, and
    files written beside it (``name -> text``, e.g. a CSV of its tables)."""

    markdown: str
    files: dict[str, str] = field(default_factory=dict)


CRASHED_STATUS = "crashed"
"""The ``status`` of a results row whose run crashed (its grade does not count)."""
