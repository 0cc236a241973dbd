"""What a grid runs: one ``RunSpec`` per scaffold x model x task x seed, each with a safe name."""

from __future__ import annotations

import hashlib
import re
from dataclasses import asdict, dataclass
from typing import Any

from scaffolds.grid.config import GridConfig

_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
MAX_PART = 60


def safe_part(text: str) -> str:
    """``text`` itself when it is already a safe file-name part; otherwise a readable slug plus
    a hash of the full text, so that two different strings never share a part."""
    if len(text) <= MAX_PART and _SAFE.fullmatch(text) and "__" not in text:
        return text
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", text).replace("__", "_").strip("-._")[:MAX_PART]
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]
    return f"{slug}-{digest}" if slug else digest


@dataclass(frozen=True)
class RunSpec:
    """One run of the grid. ``model`` is the grid's label (placeholders unfilled)."""

    scaffold: str
    model: str
    task: str
    seed: int

    @property
    def name(self) -> str:
        """``<scaffold>__<model>__<task>__seed<k>``: a safe folder name for any model string."""
        parts = (self.scaffold, self.model, self.task)
        return "__".join(safe_part(p) for p in parts) + f"__seed{self.seed}"

    def model_string(self) -> str:
        """The model this run calls: the label with {scaffold}, {task}, {seed} filled in."""
        task = re.sub(r"[^A-Za-z0-9._-]+", "-", self.task).strip("-")  # demo/x -> demo-x
        values = {"scaffold": self.scaffold, "task": task, "seed": str(self.seed)}
        return re.sub(r"\{(scaffold|task|seed)\}", lambda m: values[m.group(1)], self.model)

    @property
    def key(self) -> tuple[str, str, str, int]:
        return (self.scaffold, self.model, self.task, self.seed)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "name": self.name}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RunSpec:
        return cls(str(d["scaffold"]), str(d["model"]), str(d["task"]), int(d["seed"]))


def grid_tasks(config: GridConfig) -> list[str]:
    """The task references of the grid: ``--tasks`` as given, or every task of ``--split``."""
    if config.tasks is not None:
        return list(dict.fromkeys(config.tasks))
    from bench_adapters import list_tasks

    return list_tasks(benchmark=config.benchmark, split=config.split)


def plan_runs(config: GridConfig, tasks: list[str]) -> list[RunSpec]:
    """Every run, seed-major so that a partial grid already covers every cell once."""
    return [
        RunSpec(scaffold, model, task, seed)
        for seed in range(config.seeds)
        for task in tasks
        for model in config.models
        for scaffold in config.scaffolds
    ]


def needs_gpu(task: str) -> bool:
    """MLE-bench competitions outside upstream's ``cpu_only`` split need a GPU."""
    benchmark, _, task_id = task.partition("/")
    if benchmark != "mlebench" or not task_id:
        return False
    from bench_adapters.mlebench.splits import split_ids

    return task_id not in split_ids("cpu_only")
