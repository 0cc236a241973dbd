"""What a grid runs: one ``RunSpec`` per scaffold x model x task x seed, each with a safe name,
and ``GRID_DIR/grid.json``, the plan every command in a grid folder adds its runs to."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from scaffolds.grid.config import GridConfig
from scaffolds.record import write_json_atomic

PLAN_FILE = "grid.json"

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


RunKey = tuple[str, str, str, int, str | None, int | None]
"""(scaffold, model, task, seed, policy, nodes in flight): one run of a grid."""


@dataclass(frozen=True)
class RunSpec:
    """One run of the grid. ``model`` is the grid's label (placeholders unfilled)."""

    scaffold: str
    model: str
    task: str
    seed: int
    policy: str | None = None
    """AIDE's search policy when the grid compares policies (``--policies``); else None."""
    parallel_nodes: int | None = None
    """AIDE's nodes in flight when the grid compares them (``--parallel-nodes``); else None."""

    @property
    def arm(self) -> str:
        """The scaffold, with its policy and nodes in flight when it has them: ``aide-mcts``,
        ``aide-mcts-n4``."""
        arm = self.scaffold if self.policy is None else f"{self.scaffold}-{self.policy}"
        return arm if self.parallel_nodes is None else f"{arm}-n{self.parallel_nodes}"

    @property
    def name(self) -> str:
        """``<arm>__<model>__<task>__seed<k>``: a safe folder name for any model string."""
        parts = (self.arm, self.model, self.task)
        return "__".join(safe_part(p) for p in parts) + f"__seed{self.seed}"

    def model_string(self) -> str:
        """The model this run calls: the label with {scaffold}, {task}, {seed} filled in."""
        task = re.sub(r"[^A-Za-z0-9._-]+", "-", self.task).strip("-")  # demo/x -> demo-x
        values = {"scaffold": self.scaffold, "task": task, "seed": str(self.seed)}
        return re.sub(r"\{(scaffold|task|seed)\}", lambda m: values[m.group(1)], self.model)

    @property
    def key(self) -> RunKey:
        return (self.scaffold, self.model, self.task, self.seed, self.policy, self.parallel_nodes)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "name": self.name}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RunSpec:
        policy, nodes = d.get("policy"), d.get("parallel_nodes")
        return cls(
            str(d["scaffold"]),
            str(d["model"]),
            str(d["task"]),
            int(d["seed"]),
            None if policy is None else str(policy),
            None if nodes is None else int(nodes),
        )


def grid_tasks(config: GridConfig) -> list[str]:
    """The task references of the grid: ``--tasks`` as given, or every task of ``--split``."""
    if config.tasks is not None:
        return list(dict.fromkeys(config.tasks))
    from bench_adapters import list_tasks

    return list_tasks(benchmark=config.benchmark, split=config.split)


def arms(config: GridConfig) -> list[tuple[str, str | None, int | None]]:
    """(scaffold, policy, nodes in flight): AIDE once per ``--policies`` entry and per
    ``--parallel-nodes`` entry; other scaffolds (and AIDE without them) with None, which the
    plan records as ``null``."""
    aide_policies: list[str | None] = [*config.policies] if config.policies else [None]
    aide_nodes: list[int | None] = [*config.parallel_nodes] if config.parallel_nodes else [None]
    return [
        (scaffold, policy, nodes)
        for scaffold in config.scaffolds
        for policy in (aide_policies if scaffold == "aide" else [None])
        for nodes in (aide_nodes if scaffold == "aide" else [None])
    ]


def plan_runs(config: GridConfig, tasks: list[str]) -> list[RunSpec]:
    """Every run, seed-major so that a partial grid already covers every cell once."""
    return [
        RunSpec(scaffold, model, task, seed, policy, nodes)
        for seed in range(config.seeds)
        for task in tasks
        for model in config.models
        for scaffold, policy, nodes in arms(config)
    ]


def needs_gpu(task: str) -> bool:
    """Whether ``task`` needs a GPU, as its benchmark's adapter says (no for a benchmark that
    does not say: a grid then gives it none unless ``--gpus-per-run``)."""
    from bench_adapters.registry import needs_gpu as benchmark_says

    return bool(benchmark_says(task))


def planned_runs(grid_dir: Path) -> list[RunSpec]:
    """Every run any command planned in this grid folder (``grid.json``), in plan order."""
    try:
        data = json.loads((grid_dir / PLAN_FILE).read_text(encoding="utf-8"))
        return [RunSpec.from_dict(d) for d in data["runs"]]
    except (OSError, ValueError, KeyError, TypeError):
        return []


def save_plan(grid_dir: Path, config: GridConfig, specs: list[RunSpec]) -> None:
    """Add this command's runs to ``grid.json`` (a grid folder may grow: more seeds, models)."""
    runs = {s.key: s for s in planned_runs(grid_dir)}
    runs.update({s.key: s for s in specs})
    write_json_atomic(
        grid_dir / PLAN_FILE,
        {
            "format_version": 1,
            "config": config.model_dump(mode="json"),
            "runs": [s.to_dict() for s in runs.values()],
        },
    )
