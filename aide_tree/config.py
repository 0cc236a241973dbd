"""AIDE's options: the shared run options plus the search's own, saved whole in ``run.json``."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from scaffolds.budget import parse_duration
from scaffolds.config import RunConfig

PRESETS: dict[str, dict[str, Any]] = {
    "aide": {},
    "mlebench": {
        "steps": 500,
        "time_limit": 24 * 3600.0,
        "debug_prob": 1.0,
        "max_debug_depth": 20,
        "exec_timeout": 9 * 3600.0,
    },
}
"""Settings a ``--preset`` fills in; flags given explicitly win. ``aide`` is the original's
defaults; ``mlebench`` the MLE-bench paper's (Chan et al., 2024, appendix on AIDE)."""


class AideConfig(RunConfig):
    """Options of ``python -m scaffolds.aide``. Defaults follow the original AIDE. Each policy
    reads the fields named after it (``mcts:``, ``evolutionary:``) plus num_drafts, debug_prob
    (greedy, evolutionary) and max_debug_depth."""

    steps: int | None = Field(default=20, ge=1, description="Nodes to create (one step = one node)")
    num_drafts: int = Field(default=5, ge=0, description="Independent drafts before improving")
    debug_prob: float = Field(
        default=0.5, ge=0.0, le=1.0, description="Chance of debugging a buggy leaf at each step"
    )
    max_debug_depth: int = Field(
        default=3, ge=0, description="Most debug steps in a row on one branch"
    )
    exec_timeout: float = Field(
        default=3600.0, description="Longest run of one node's code, e.g. 1h (cut to time left)"
    )
    feedback_model: str | None = Field(
        default=None, description="Model that reviews each run (default: the main model)"
    )
    preset: Literal["aide", "mlebench"] | None = Field(
        default=None,
        description="Named settings: aide (original) or mlebench (500 steps, 24h, ...)",
    )
    policy: Literal["greedy", "mcts", "evolutionary"] = Field(
        default="greedy",
        description="Search policy: greedy (AIDE's), mcts (UCT over the tree), evolutionary",
    )
    max_children: int = Field(
        default=3, ge=1, description="mcts: improvements of a working node before UCT passes it"
    )
    exploration: float = Field(
        default=1.0,
        ge=0.0,
        description="mcts: UCT constant c in value + c*sqrt(ln N(parent)/N(child)), values in 0..1",
    )
    backup: Literal["max", "mean"] = Field(
        default="max", description="mcts: a node's value from its subtree: the best, or the mean"
    )
    population_size: int = Field(
        default=5, ge=1, description="evolutionary: the best working nodes that may be parents"
    )
    selection: Literal["tournament", "fitness"] = Field(
        default="tournament",
        description="evolutionary: parent selection, tournament or fitness-proportional",
    )
    tournament_size: int = Field(
        default=3, ge=1, description="evolutionary: members drawn for each tournament"
    )
    crossover_prob: float = Field(
        default=0.3,
        ge=0.0,
        le=1.0,
        description="evolutionary: chance that a step combines two parents (crossover)",
    )
    memory_nodes: int = Field(
        default=8, ge=0, description="Earlier working nodes summarised in each prompt"
    )
    preview_chars: int = Field(default=6000, ge=500, description="Size cap of the data preview")
    parallel_nodes: int = Field(
        default=1,
        ge=1,
        description="Nodes in flight at once, each in its own kernel and folder (1: one at a time)",
    )
    node_cpus: int | None = Field(
        default=None,
        ge=1,
        description="CPU threads of each node's kernel (default: the cores split among the nodes)",
    )
    node_gpus: int | None = Field(
        default=None,
        ge=1,
        description="GPUs of each node (default: split evenly; shared when fewer than nodes)",
    )

    @field_validator("exec_timeout", mode="before")
    @classmethod
    def _exec_duration(cls, value: Any) -> float:
        return parse_duration(value)

    @model_validator(mode="before")
    @classmethod
    def _apply_preset(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("preset"):
            preset = PRESETS.get(data["preset"], {})
            data = {**preset, **data}
        return data
