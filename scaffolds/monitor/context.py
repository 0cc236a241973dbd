"""Everything the static checks read about one run, gathered once: its record, its actions,
its task (resolved again from ``run.json``, for the private paths, the submission's shape and
PaperBench's blacklist) and the folders around it (other runs, the grid).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scaffolds.monitor.trace import Action, read_actions

GRID_FILES = ("results.jsonl", "grid.json", "summary.csv", "summary.md")
NAMES_KEPT = 500
"""Most file names listed from the public data or the private paths."""


@dataclass
class RunContext:
    dir: Path
    summary: dict[str, Any]
    events: list[tuple[int, dict[str, Any]]]
    actions: list[Action]
    task: Any = None
    task_problem: str | None = None
    """Why the task could not be resolved here (its private paths are then unknown)."""
    grid_dir: Path | None = None
    other_runs: list[Path] = field(default_factory=list)

    @property
    def workspace(self) -> Path:
        return self.dir / "workspace"

    @property
    def task_ref(self) -> str:
        return str(self.summary.get("task") or "")

    @property
    def submission_relpath(self) -> str:
        return str(getattr(self.task, "submission_relpath", "submission/submission.csv"))

    @property
    def submission_is_folder(self) -> bool:
        if self.task is None:
            return self.task_ref.startswith("paperbench/")
        return bool(getattr(self.task, "submission_is_folder", False))

    def private_paths(self) -> list[Path]:
        from scaffolds.protocols import HasPrivateFiles

        return list(self.task.private_paths()) if isinstance(self.task, HasPrivateFiles) else []

    def blacklist(self) -> list[str] | None:
        """PaperBench's blacklist of the run's paper; None for a task without one."""
        paper = getattr(self.task, "paper", None)
        entries = getattr(paper, "blacklist", None)
        return list(entries) if entries is not None else None

    def public_names(self) -> set[str]:
        """File names of the task's public data (the workspace's ``data/`` copy, else the task's
        public folder), two levels deep."""
        root = self.workspace / "data"
        if not root.is_dir() and self.task is not None:
            root = Path(self.task.public_dir)
        return set(list_names(root, depth=2))

    def private_names(self) -> set[str]:
        """File names under the private paths that are not also public names."""
        names = set()
        for path in self.private_paths():
            names.update(list_names(path, depth=3) if path.is_dir() else [path.name])
        return names - self.public_names()


def list_names(root: Path, depth: int) -> list[str]:
    names: list[str] = []
    if not root.is_dir():
        return names
    for current, dirs, files in os.walk(root):
        if len(Path(current).relative_to(root).parts) >= depth - 1:
            dirs[:] = []
        names += files
        if len(names) >= NAMES_KEPT:
            break
    return names[:NAMES_KEPT]


def resolve_run_task(summary: dict[str, Any]) -> tuple[Any, str | None]:
    """The run's task, resolved with the options its run.json saved; (None, why) if it cannot
    be resolved here."""
    from bench_adapters import resolve_task
    from bench_adapters.registry import OPTIONS

    ref = summary.get("task")
    if not ref:
        return None, "run.json names no task"
    config = summary.get("config") or {}
    options = {k: config[k] for k in OPTIONS if config.get(k)}
    options.pop("judge_model", None)  # the checks never grade
    try:
        return resolve_task(str(ref), **options), None
    except Exception as exc:  # unknown here, unprepared data, a broken folder: say so, go on
        return None, f"task {ref} not resolvable here ({type(exc).__name__}: {exc})".splitlines()[0]


def grid_of(run_dir: Path) -> Path | None:
    """The grid folder holding ``run_dir`` (``GRID/runs/<name>/``), if it is in one."""
    grid = run_dir.parent.parent
    if run_dir.parent.name == "runs" and any((grid / f).is_file() for f in GRID_FILES):
        return grid
    return None


def load_context(run_dir: Path, resolve: bool = True) -> RunContext:
    """The run in ``run_dir`` (FileNotFoundError when it holds no run.json)."""
    from tools.exposure import sibling_runs

    run_dir = Path(run_dir).absolute()
    summary_path = run_dir / "run.json"
    if not summary_path.is_file():
        raise FileNotFoundError(f"{run_dir} is not a run folder (no run.json)")
    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    if not isinstance(summary, dict):
        raise ValueError(f"{summary_path} is not a JSON object")
    events, found = read_actions(run_dir)
    context = RunContext(run_dir, summary, events, found)
    if resolve:
        context.task, context.task_problem = resolve_run_task(summary)
    context.grid_dir = grid_of(run_dir)
    context.other_runs = sibling_runs(run_dir)
    return context
