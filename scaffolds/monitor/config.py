"""The monitor's two commands' options; CLI flags map onto these fields one to one."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, field_validator

from scaffolds.monitor.fingerprint import K
from scaffolds.monitor.plagiarism import THRESHOLD


def fraction(value: float) -> float:
    if not 0.0 <= value <= 1.0:
        raise ValueError("must be between 0 and 1")
    return value


def positive(value: int | None) -> int | None:
    if value is not None and value < 1:
        raise ValueError("must be at least 1")
    return value


class MonitorConfig(BaseModel):
    """``python -m scaffolds.monitor RUN_DIR``: check one run (or every finished run of a grid)."""

    run_dir: Path = Field(description="A run folder (holds run.json), or a grid folder")
    against: Path | None = Field(
        None,
        description="Reference notebooks and scripts for the plagiarism check; a sub-folder "
        "named after the run's task (e.g. spaceship-titanic) is used when there is one",
    )
    k: int = Field(K, description="Tokens per k-gram for the plagiarism check")
    threshold: float = Field(THRESHOLD, description="Similarity above which plagiarism is flagged")
    judge_model: str | None = Field(
        None, description="Model that reviews the log (any litellm model, replay:FILE.jsonl)"
    )
    judge_api_base: str | None = Field(
        None, description="OpenAI-compatible server for --judge-model"
    )
    judge_context_window: int | None = Field(
        None, description="The reviewer's input window in tokens (default: litellm's, else 128000)"
    )
    max_judge_cost: float | None = Field(
        None, description="Stop reviewing when the reviewer's spend reaches this many USD"
    )
    review: Literal["medalled", "all"] = Field(
        "medalled",
        description="Runs the log reviewer reads: medalled (a medal or above the median, as "
        "MLE-bench did) or all",
    )
    disqualify_flagged: bool = Field(
        False, description="Disqualify a run any check flags (default: only PaperBench's blacklist)"
    )

    @field_validator("threshold")
    @classmethod
    def _threshold(cls, value: float) -> float:
        return fraction(value)

    @field_validator("k", "judge_context_window")
    @classmethod
    def _positive(cls, value: int | None) -> int | None:
        return positive(value)


class PlagiarismConfig(BaseModel):
    """``python -m scaffolds.monitor plagiarism``: one solution against reference files."""

    code: Path = Field(description="The solution: a .py script or an .ipynb notebook")
    against: Path = Field(description="Folder of reference .py and .ipynb files (searched deeply)")
    k: int = Field(K, description="Tokens per k-gram")
    threshold: float = Field(
        THRESHOLD, description="Similarity above which the solution is flagged"
    )
    cache: bool = Field(
        True,
        description="Cache the references' fingerprints (in ~/.cache/mlagent-scaffolds, or "
        "$XDG_CACHE_HOME, never in AGAINST)",
    )

    @field_validator("threshold")
    @classmethod
    def _threshold(cls, value: float) -> float:
        return fraction(value)

    @field_validator("k")
    @classmethod
    def _positive(cls, value: int) -> int:
        return positive(value)  # type: ignore[return-value]
