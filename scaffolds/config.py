"""Run configuration shared by every scaffold, and its one-to-one mapping onto CLI flags."""

from __future__ import annotations

import argparse
import os
import sys
import types
import typing
from pathlib import Path
from typing import Any, Literal, NoReturn, TypeVar, get_args, get_origin

from pydantic import BaseModel, Field, ValidationError, field_validator

from bench_adapters.options import TaskOptions
from scaffolds.budget import parse_duration
from scaffolds.model import ModelConfig

C = TypeVar("C", bound=BaseModel)


class RunConfig(TaskOptions, ModelConfig):
    """Options every scaffold shares: the model's (``ModelConfig``), the task's
    (``bench_adapters.options.TaskOptions``, declared there once) and the run's own. Saved
    whole in ``run.json``."""

    task: str = Field(description="Task reference: mlebench/<id>, demo/<id>, or a task folder")
    out: Path | None = Field(None, description="Run folder (default runs/<scaffold>-<task>-<time>)")
    steps: int | None = Field(None, description="Step limit (model turns; AIDE: nodes)")
    time_limit: float = Field(
        3600.0, description="Agent time limit, e.g. 90s, 15m, 24h (retry waits not charged)"
    )
    wall_limit: float | None = Field(
        None,
        description="Wall-clock limit, retry waits included, e.g. 30h (default: the time limit "
        "plus a quarter of it, and at least 10m more)",
    )
    cost_limit: float | None = Field(
        None,
        description="Model spend cap in USD: a request the rest of it cannot pay for at the "
        "model's listed prices is not sent",
    )
    seed: int = Field(0, description="Seed for every random choice the scaffold makes")
    record: Path | None = Field(
        None, description="Append every model response to this JSONL cassette"
    )
    resume: Path | None = Field(None, description="Continue the killed run in this folder")
    grade_later: bool = Field(
        False, description="End without grading; grade later with python -m bench_adapters grade"
    )
    tool_timeout: float = Field(
        9 * 3600.0, description="Longest single tool call, e.g. 2h (cut to time left)"
    )
    output_cap: int = Field(16000, description="Characters of tool output kept (head and tail)")
    agent_user: str = Field(
        default_factory=lambda: os.environ.get("SCAFFOLDS_AGENT_USER") or "agent",
        description="Unprivileged user the agent's code runs as (when root; "
        "$SCAFFOLDS_AGENT_USER sets the default)",
    )
    sandbox: Literal["auto", "namespace", "user"] = Field(
        "auto",
        description="Agent isolation when root: namespace (bwrap: private files absent from "
        "its view), user (the agent user only), auto (namespace where bwrap works)",
    )
    allow_exposed_answers: bool = Field(
        False,
        description="Start even when the agent user can read the task's private files or other "
        "runs' folders (run.json records what was exposed)",
    )

    @field_validator("time_limit", "tool_timeout", mode="before")
    @classmethod
    def _duration(cls, value: Any) -> float:
        return parse_duration(value)

    @field_validator("wall_limit", mode="before")
    @classmethod
    def _optional_duration(cls, value: Any) -> float | None:
        return None if value is None else parse_duration(value)

    def model_settings(self) -> ModelConfig:
        return ModelConfig(**{k: getattr(self, k) for k in ModelConfig.model_fields})


def _flag_type(annotation: Any) -> tuple[Any, dict[str, Any]]:
    """argparse ``type``/``choices``/``action`` for a field annotation."""
    origin = get_origin(annotation)
    if origin in (types.UnionType, typing.Union):
        inner = [a for a in get_args(annotation) if a is not type(None)]
        return _flag_type(inner[0])
    if origin is Literal:
        return str, {"choices": list(get_args(annotation))}
    if annotation is bool:
        return None, {"action": argparse.BooleanOptionalAction}
    if annotation is Path:
        return Path, {}
    if annotation in (int, float):
        return str, {}  # validated (and durations parsed) by pydantic
    return str, {}


class OneLineParser(argparse.ArgumentParser):
    """Bad flags end with one line (``prog: error: ...``) and exit 2, without the usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser(
    config_cls: type[BaseModel], prog: str, description: str, example: str
) -> argparse.ArgumentParser:
    """One flag per config field (``--time-limit`` for ``time_limit``), help from its description."""
    parser = OneLineParser(
        prog=prog,
        description=description,
        epilog=f"example:\n  {example}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    for name, field in config_cls.model_fields.items():
        flag_type, extra = _flag_type(field.annotation)
        help_text = field.description or ""
        if field.is_required():
            help_text += " (required)"
        elif (default := field.get_default(call_default_factory=True)) not in (None, False):
            help_text += f" (default: {default})"
        kwargs: dict[str, Any] = {
            "dest": name,
            "default": argparse.SUPPRESS,
            "help": help_text,
            **extra,
        }
        if flag_type is not None and "action" not in extra:
            kwargs["type"] = flag_type
        parser.add_argument("--" + name.replace("_", "-"), **kwargs)
    return parser


def config_from_flags(config_cls: type[C], values: dict[str, Any], prog: str) -> C:
    """Parsed flags -> config; a bad value exits 2 with one line naming the flag."""
    try:
        return config_cls(**values)
    except ValidationError as exc:
        err = exc.errors()[0]
        flag = "--" + str(err["loc"][0]).replace("_", "-") + ": " if err["loc"] else ""
        message = str(err["msg"]).removeprefix("Value error, ")
        print(f"{prog}: error: {flag}{message}", file=sys.stderr)
        raise SystemExit(2) from None


def parse_config(
    config_cls: type[C], parser: argparse.ArgumentParser, argv: list[str] | None = None
) -> C:
    """Flags -> a scaffold's config; ``--resume`` alone stands for the saved task and model."""
    values = vars(parser.parse_args(argv))
    if values.get("resume") is not None and "task" not in values:
        values["task"] = ""  # filled in from the run's saved config
    if "model" not in values and values.get("resume") is None:
        parser.error("the following arguments are required: --model")
    values.setdefault("model", "")
    return config_from_flags(config_cls, values, parser.prog)
