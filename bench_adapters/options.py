"""Task options: what a benchmark's adapter may be told, declared once.

One field per option; everything else derives from ``TaskOptions``: the names the registry
accepts (``NAMES``), the flags of ``python -m bench_adapters`` (``add_flags``), every scaffold's
flags (``scaffolds.config.RunConfig`` inherits the model), and the grading command a
``--grade-later`` run records (``grade_flags``). Adding an option is adding a field here (and
reading it in the adapters that use it). A field's ``json_schema_extra`` says:

- ``group``: its flag group in ``python -m bench_adapters`` (``data``, ``judge``, ``paper``,
  ``instructions``);
- ``grading``: ``python -m bench_adapters grade`` takes it, so a recorded grading command keeps it;
- ``benchmarks``: the benchmarks it matters for; a grading command for another leaves it out;
- ``duration``: it is given as a duration (``90m``, ``12h``) and held in seconds;
- ``run_default``: left unset in a run, it takes that run setting's value (PaperBench's
  reproduction gets the run's own time limit).
"""

from __future__ import annotations

import argparse
import shlex
import typing
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator
from pydantic.fields import FieldInfo

from scaffolds.budget import parse_duration


class TaskOptions(BaseModel):
    """The options a task's adapter takes; each adapter ignores the ones of other benchmarks."""

    data_dir: Path | None = Field(
        None,
        description="Benchmark data: MLE-bench prepared data (default $MLEBENCH_DATA_DIR), "
        "PaperBench data (default $PAPERBENCH_DATA_DIR), TAM-Bench data (default $TAM_DATA_DIR)",
        json_schema_extra={"group": "data", "grading": True},
    )
    mlebench_dir: Path | None = Field(
        None,
        description="Upstream mle-bench checkout, for leaderboards (default $MLEBENCH_DIR)",
        json_schema_extra={"group": "data", "grading": True},
    )
    demo_dir: Path | None = Field(
        None,
        description="Demo task cache (default $SCAFFOLDS_DEMO_DIR or ~/.cache/scaffolds/demo)",
        json_schema_extra={"group": "data", "grading": True, "benchmarks": ["demo"]},
    )
    obfuscate: bool = Field(
        False,
        description="Hide the competition's name and Kaggle from the instructions",
        json_schema_extra={"group": "instructions"},
    )
    judge_model: str | None = Field(
        None,
        description="Model that grades judge-graded tasks (PaperBench rubrics, TAM constraints)",
        json_schema_extra={"group": "judge", "grading": True, "benchmarks": ["tam", "paperbench"]},
    )
    judge_api_base: str | None = Field(
        None,
        description="OpenAI-compatible server for --judge-model",
        json_schema_extra={"group": "judge", "grading": True, "benchmarks": ["tam", "paperbench"]},
    )
    max_judge_cost: float | None = Field(
        None,
        description="Judge spend cap in USD: a question the rest of it cannot pay for is not sent",
        json_schema_extra={"group": "judge", "grading": True, "benchmarks": ["tam", "paperbench"]},
    )
    code_dev: bool = Field(
        False,
        description="PaperBench Code-Dev: grade only code development, run no reproduction",
        json_schema_extra={"group": "paper", "grading": True, "benchmarks": ["paperbench"]},
    )
    reproduce_timeout: float | None = Field(
        None,
        description="PaperBench: longest reproduce.sh run, e.g. 12h (default: a run's "
        "--time-limit; 100h when grading outside a run)",
        json_schema_extra={
            "group": "paper",
            "grading": True,
            "benchmarks": ["paperbench"],
            "duration": True,
            "run_default": "time_limit",
        },
    )
    resources_provided: bool = Field(
        False,
        description="PaperBench: datasets and models were given; their acquisition weighs 0",
        json_schema_extra={"group": "paper", "grading": True, "benchmarks": ["paperbench"]},
    )
    agent_network: Literal["on", "off"] = Field(
        "on",
        description="Network for agent code (and PaperBench's reproduce.sh); off leaves it "
        "loopback only (namespace sandbox)",
        json_schema_extra={"group": "paper", "grading": True, "benchmarks": ["paperbench"]},
    )

    @field_validator("reproduce_timeout", mode="before")
    @classmethod
    def _reproduce_duration(cls, value: Any) -> float | None:
        return None if value is None else parse_duration(value)


FIELDS: dict[str, FieldInfo] = dict(TaskOptions.model_fields)
NAMES = frozenset(FIELDS)
"""Every option name the registry accepts."""


def extra(name: str) -> dict[str, Any]:
    """The field's metadata (see the module docstring)."""
    value = FIELDS[name].json_schema_extra
    return dict(value) if isinstance(value, dict) else {}


def is_set(name: str, value: Any) -> bool:
    """Whether ``value`` is more than the option's default (None, False, the default)."""
    return value is not None and value is not False and value != FIELDS[name].default


def grade_flags(benchmark: str, values: dict[str, Any]) -> list[str]:
    """The ``python -m bench_adapters grade`` flags that carry ``values`` (options as a run
    has them) for a task of ``benchmark``: grading options only, those of other benchmarks
    left out."""
    argv: list[str] = []
    for name, value in values.items():
        meta = extra(name)
        wanted = meta.get("benchmarks")
        if (
            not meta.get("grading")
            or not is_set(name, value)
            or (wanted and benchmark not in wanted)
        ):
            continue
        flag = "--" + name.replace("_", "-")
        argv += [flag] if value is True else [flag, str(value)]
    return argv


def grade_command(
    task: str, submission: Path, values: dict[str, Any], run_dir: Path | None = None
) -> str:
    """The command that grades ``submission`` for ``task`` with the options ``values`` (and
    writes the grade into the run's record, given ``run_dir``)."""
    argv = ["python", "-m", "bench_adapters", "grade", "--task", task]
    argv += ["--submission", str(submission), *grade_flags(task.partition("/")[0], values)]
    argv += ["--run-dir", str(run_dir)] if run_dir is not None else []
    return " ".join(shlex.quote(part) for part in argv)


def _duration_type(text: str) -> float:
    try:
        return parse_duration(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from e


def add_flags(parser: argparse.ArgumentParser, *groups: str) -> None:
    """The flags of the options of ``groups``, for ``python -m bench_adapters``."""
    for name, field in FIELDS.items():
        meta = extra(name)
        if meta.get("group") not in groups:
            continue
        flag = "--" + name.replace("_", "-")
        help_text = field.description or ""
        if field.annotation is bool:
            parser.add_argument(flag, action="store_true", help=help_text)
        elif meta.get("duration"):
            parser.add_argument(flag, type=_duration_type, help=help_text)
        elif typing.get_origin(field.annotation) is Literal:
            parser.add_argument(flag, choices=typing.get_args(field.annotation), help=help_text)
        elif field.annotation in (float, float | None):
            parser.add_argument(flag, type=float, help=help_text)
        else:
            parser.add_argument(flag, help=help_text)


def from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The options a parsed ``python -m bench_adapters`` command line gives (absent flags and
    switches left off are None)."""
    return {name: (getattr(args, name, None) or None) for name in FIELDS}
