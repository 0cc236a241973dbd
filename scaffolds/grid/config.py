"""The grid's configuration, and its one-to-one mapping onto ``python -m scaffolds.ablate`` flags."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from scaffolds.budget import parse_duration
from scaffolds.config import build_parser, config_from_flags

KNOWN_SCAFFOLDS = ("aide", "basic", "iterative")
"""Scaffolds with a ``python -m scaffolds.<name>`` entry point."""

AIDE_POLICIES = ("greedy", "mcts", "evolutionary")
"""``python -m scaffolds.aide --policy`` choices (``aide_tree.POLICIES``)."""

PLACEHOLDERS = ("scaffold", "task", "seed")
"""Fields a model string may name as ``{scaffold}``, ``{task}``, ``{seed}`` (filled per run)."""


def _split_commas(value: Any) -> Any:
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return value


class GridConfig(BaseModel):
    """A grid of scaffold x model x task x seed runs. Saved in ``GRID_DIR/grid.json``."""

    scaffolds: list[str] = Field(
        description="Comma-separated scaffolds to compare: aide, basic, iterative"
    )
    models: list[str] = Field(
        description=(
            "Comma-separated model strings (any litellm model, replay:FILE.jsonl). "
            "{scaffold}, {task} (with / as -) and {seed} in a model string are filled in per "
            "run, e.g. replay:cassettes/{scaffold}-{task}.jsonl"
        )
    )
    policies: list[str] | None = Field(
        None,
        description=(
            "Comma-separated AIDE search policies to compare (greedy, mcts, evolutionary): each "
            "AIDE run once per policy; other scaffolds take no policy"
        ),
    )
    parallel_nodes: list[int] | None = Field(
        None,
        description=(
            "Comma-separated AIDE nodes in flight to compare (e.g. 1,4): each AIDE run once per "
            "value (and per policy); other scaffolds take none"
        ),
    )
    tasks: list[str] | None = Field(
        None, description="Comma-separated task references (e.g. demo/tabular-binary); or --split"
    )
    split: str | None = Field(
        None, description="Run every task of this split of --benchmark, e.g. lite"
    )
    benchmark: str = Field("mlebench", description="Benchmark whose --split is meant")
    seeds: int = Field(1, description="Seeds per scaffold x model x task: 0 .. seeds-1")
    out: Path = Field(description="Grid folder: runs/, results.jsonl, summary.csv/md, plots")
    time_limit: float | None = Field(
        None, description="Agent time limit per run, e.g. 30m, 24h (default: the scaffold's)"
    )
    steps: int | None = Field(None, description="Step limit per run (default: the scaffold's)")
    api_base: str | None = Field(None, description="OpenAI-compatible server URL, for every run")
    data_dir: Path | None = Field(
        None, description="MLE-bench prepared data for every run (default $MLEBENCH_DATA_DIR)"
    )
    scaffold_args: str | None = Field(
        None, description="Extra flags given to every run, e.g. '--cost-limit 5 --obfuscate'"
    )
    workers: int | None = Field(
        None, description="Runs at a time (default: 1 on local; as many as Ray can place on ray)"
    )
    backend: Literal["local", "ray"] = Field(
        "local", description="local: subprocesses on this machine; ray: one Ray task per run"
    )
    ray_address: str | None = Field(
        None,
        description=(
            "Ray cluster to run on, from one of its nodes: HEAD_IP:6379, or auto (see "
            "scaffolds/grid/README.md); default: a Ray instance on this machine"
        ),
    )
    ray_cpus: int | None = Field(
        None, description="CPUs of the local Ray instance started without --ray-address"
    )
    cpus_per_run: float | None = Field(
        None, description="CPUs every run requests on Ray (default: 1 per run)"
    )
    gpus_per_run: float | None = Field(
        None,
        description=(
            "GPUs every run requests, on Ray and on the local backend (default: its task's: 1 "
            "for MLE-bench competitions outside cpu_only and PaperBench papers, 0 otherwise)"
        ),
    )
    memory_per_run: float | None = Field(
        None, description="GiB of memory every run requests on Ray (default: none reserved)"
    )
    node_label: str | None = Field(
        None,
        description="KEY=VALUE: runs go only to Ray nodes started with --labels KEY=VALUE",
    )
    retry_lost: int = Field(
        3,
        description=(
            "Times a run whose Ray node or worker died is continued elsewhere from its last "
            "checkpoint before it counts as crashed"
        ),
    )
    retry_crashed: bool = Field(
        True, description="On a rerun, run again the runs that crashed (their folder is kept aside)"
    )
    report: bool = Field(True, description="Write summary tables and plots when the grid ends")
    monitor: bool = Field(
        False,
        description="When the grid ends, run python -m scaffolds.monitor on every finished run "
        "(runs/<name>/monitor.json; the report then lists flagged runs)",
    )
    monitor_args: str | None = Field(
        None,
        description="Flags for every monitor run, e.g. '--against notebooks/ --judge-model "
        "gpt-4o-mini' (needs --monitor)",
    )

    @field_validator("scaffolds", "models", "tasks", "policies", "parallel_nodes", mode="before")
    @classmethod
    def _commas(cls, value: Any) -> Any:
        return _split_commas(value)

    @field_validator("time_limit", mode="before")
    @classmethod
    def _duration(cls, value: Any) -> Any:
        return None if value is None else parse_duration(value)

    @field_validator("scaffolds")
    @classmethod
    def _known_scaffolds(cls, value: list[str]) -> list[str]:
        for name in value:
            if name not in KNOWN_SCAFFOLDS:
                raise ValueError(f"unknown scaffold {name!r} (known: {', '.join(KNOWN_SCAFFOLDS)})")
        return list(dict.fromkeys(value))

    @field_validator("policies")
    @classmethod
    def _known_policies(cls, value: list[str] | None) -> list[str] | None:
        for name in value or ():
            if name not in AIDE_POLICIES:
                raise ValueError(f"unknown policy {name!r} (known: {', '.join(AIDE_POLICIES)})")
        return None if value is None else list(dict.fromkeys(value))

    @field_validator("parallel_nodes")
    @classmethod
    def _positive_nodes(cls, value: list[int] | None) -> list[int] | None:
        if value is not None and any(n < 1 for n in value):
            raise ValueError("--parallel-nodes takes whole numbers of at least 1")
        return None if value is None else list(dict.fromkeys(value))

    @field_validator("models")
    @classmethod
    def _model_templates(cls, value: list[str]) -> list[str]:
        for model in value:
            for name in re.findall(r"\{([^{}]*)\}", model):
                if name not in PLACEHOLDERS:
                    raise ValueError(
                        f"model {model!r}: unknown placeholder {{{name}}} "
                        f"(known: {', '.join('{' + p + '}' for p in PLACEHOLDERS)})"
                    )
        return list(dict.fromkeys(value))

    @field_validator("seeds", "workers")
    @classmethod
    def _positive(cls, value: int | None) -> int | None:
        if value is not None and value < 1:
            raise ValueError("must be at least 1")
        return value

    @field_validator("cpus_per_run", "gpus_per_run", "memory_per_run", "retry_lost")
    @classmethod
    def _not_negative(cls, value: float | None) -> float | None:
        if value is not None and value < 0:
            raise ValueError("must be 0 or more")
        return value

    @field_validator("node_label")
    @classmethod
    def _label(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"[^=\s]+=[^=\s]+", value):
            raise ValueError(f"expected KEY=VALUE, got {value!r}")
        return value

    @model_validator(mode="after")
    def _one_task_source(self) -> GridConfig:
        if not self.scaffolds or not self.models:
            raise ValueError("give at least one scaffold and one model")
        if (self.tasks is None) == (self.split is None):
            raise ValueError("give exactly one of --tasks and --split")
        if self.tasks is not None and not self.tasks:
            raise ValueError("--tasks is empty")
        if self.policies is not None and (not self.policies or "aide" not in self.scaffolds):
            raise ValueError("--policies needs at least one policy and the aide scaffold")
        if self.parallel_nodes is not None and (
            not self.parallel_nodes or "aide" not in self.scaffolds
        ):
            raise ValueError("--parallel-nodes needs at least one value and the aide scaffold")
        if self.backend == "local" and (self.ray_address or self.ray_cpus):
            raise ValueError("--ray-address and --ray-cpus need --backend ray")
        if self.backend == "local" and (self.memory_per_run or self.node_label):
            raise ValueError("--memory-per-run and --node-label need --backend ray")
        if (self.ray_address or "").startswith("ray://"):
            raise ValueError(
                "Ray Client (ray://) cannot stream run records back; run the grid on a node of "
                "the cluster with --ray-address HEAD_IP:6379 (or auto)"
            )
        if self.monitor_args and not self.monitor:
            raise ValueError("--monitor-args needs --monitor")
        return self

    def concurrency(self) -> int | None:
        """Runs at a time: ``workers``, else 1 locally and unlimited (Ray decides) on ray."""
        if self.workers is not None:
            return self.workers
        return 1 if self.backend == "local" else None


def parse_grid_config(
    argv: list[str] | None, prog: str, description: str, example: str
) -> GridConfig:
    """Flags -> GridConfig (one flag per field); a bad value exits 2 with one line naming the flag."""
    parser = build_parser(GridConfig, prog, description, example)
    return config_from_flags(GridConfig, vars(parser.parse_args(argv)), prog)
