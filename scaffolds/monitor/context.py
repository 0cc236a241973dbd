"""Everything the static checks read about one run, gathered once: its record, its actions,
its task (resolved again from ``run.json``, for the private paths, the submission's shape and
PaperBench's blacklist) and the folders around it (other runs, the grid).

A run a grid placed on a Ray worker works in the worker's ``/tmp/scaffolds-grid-*/<name>/``, not
in the driver's copy (``GRID/runs/<name>/``), so the paths its agent writes name the worker's
folder. Its records name that folder too (:func:`recorded_dirs`): ``run.json``'s
``config.out`` (its first process) and ``config.resume`` (its latest), and the command of each
process in ``grid_attempts.jsonl``. The checks protect each other run's recorded folders beside
its driver copy, and count this run's own as its own.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scaffolds.monitor.trace import Action, read_actions

GRID_FILES = ("results.jsonl", "grid.json", "summary.csv", "summary.md")
NAMES_KEPT = 500
"""Most file names listed from the public data or the private paths."""
_DISTINCT = re.compile(r"[^.\s]+.*\.\w+")
"""A private file name matched on its own must have a suffix (``answers.csv``, ``rubric.json``):
bare names (a private git folder's ``config``, ``index``, ``HEAD`` and object hashes) are words
of ordinary code."""


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
    """The other run folders beside this one (their driver copies, in a grid)."""
    own_dirs: list[Path] = field(default_factory=list)
    """Folders this run worked in other than ``dir`` (a Ray worker's), as its records name them."""
    other_dirs: list[Path] = field(default_factory=list)
    """Folders the other runs worked in other than their own ``dir`` (Ray workers')."""

    @property
    def workspace(self) -> Path:
        return self.dir / "workspace"

    @property
    def workspaces(self) -> list[Path]:
        """The workspace, and its copies in ``own_dirs``."""
        return [self.workspace] + [d / "workspace" for d in self.own_dirs]

    @property
    def task_ref(self) -> str:
        return str(self.summary.get("task") or "")

    @property
    def submission_relpath(self) -> str:
        if self.task is None:
            return "submission" if self.submission_is_folder else "submission/submission.csv"
        return self.task.submission_relpath

    @property
    def submission_is_folder(self) -> bool:
        if self.task is None:  # its data is not here: its benchmark still knows
            from bench_adapters.registry import submits_folder

            return submits_folder(self.task_ref)
        return self.task.submission_is_folder

    def private_paths(self) -> list[Path]:
        from scaffolds.protocols import HasPrivateFiles

        return list(self.task.private_paths()) if isinstance(self.task, HasPrivateFiles) else []

    def public_names(self) -> set[str]:
        """File names of the task's public data (the workspace's ``data/`` copy, else the task's
        public folder), two levels deep."""
        root = self.workspace / "data"
        if not root.is_dir() and self.task is not None:
            root = Path(self.task.public_dir)
        return set(list_names(root, depth=2))

    def private_names(self) -> set[str]:
        """File names under the private paths that are not also public names and have a
        suffix (see ``_DISTINCT``)."""
        names = set()
        for path in self.private_paths():
            names.update(list_names(path, depth=3) if path.is_dir() else [path.name])
        return {n for n in names - self.public_names() if _DISTINCT.fullmatch(n)}


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


def recorded_dirs(run_dir: Path, summary: dict[str, Any] | None = None) -> list[Path]:
    """The absolute folders ``run_dir``'s records say its processes worked in, other than
    ``run_dir`` itself (see the module docstring); ``summary``: its run.json, when already read."""
    if summary is None:
        summary = read_json(run_dir / "run.json")
    config, placement = (summary.get(k) for k in ("config", "placement"))
    config = config if isinstance(config, dict) else {}
    placement = placement if isinstance(placement, dict) else {}
    named = [config.get("out"), config.get("resume"), placement.get("run_dir")]
    for attempt in attempt_lines(run_dir):
        command = attempt.get("command") if isinstance(attempt, dict) else None
        if isinstance(command, list):
            pairs = itertools.pairwise(command)
            named += [value for flag, value in pairs if flag in ("--out", "--resume")]
    here = os.path.normpath(run_dir)
    found = {os.path.normpath(n) for n in named if isinstance(n, str) and n.startswith("/")}
    return sorted(Path(p) for p in found - {here})


def read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def attempt_lines(run_dir: Path) -> list[Any]:
    from scaffolds.grid.runstate import attempts

    try:
        return attempts(run_dir)
    except (OSError, UnicodeDecodeError):
        return []


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
    context.own_dirs = recorded_dirs(run_dir, summary)
    mine = [str(p) for p in [run_dir, *context.own_dirs]]
    context.other_dirs = [
        d
        for run in context.other_runs
        for d in recorded_dirs(run)
        if not any(within(str(d), m) or within(m, str(d)) for m in mine)
    ]
    return context


def within(path: str, folder: str) -> bool:
    """``path`` is ``folder`` or under it (both normalised)."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")
