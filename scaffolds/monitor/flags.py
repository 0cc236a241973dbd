"""The monitor's flags: one per ``MonitorConfig`` field, parsed the one way both its command
(``python -m scaffolds.monitor``) and the grid's ``--monitor-args`` parse them."""

from __future__ import annotations

import argparse
from typing import Any

from pydantic import BaseModel

from scaffolds.config import OneLineParser, config_from_flags
from scaffolds.config import _flag_type as flag_type
from scaffolds.monitor.config import MonitorConfig

PROG = "python -m scaffolds.monitor"
RUN_EXAMPLE = (
    f"{PROG} runs/aide-mlebench-spaceship-titanic-20250101-120000 --against notebooks/ "
    "--judge-model gpt-4o-mini"
)
EXIT = "exit status: 0 nothing flagged, 1 something flagged, 2 bad input"


def parser_for(
    config_cls: type[BaseModel], prog: str, description: str, example: str, positional: str = ""
) -> argparse.ArgumentParser:
    """One flag per field (``positional`` is an argument instead), help from its description."""
    p = OneLineParser(
        prog=prog,
        description=description,
        epilog=f"example:\n  {example}\n\n{EXIT}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    for name, field in config_cls.model_fields.items():
        kind, extra = flag_type(field.annotation)
        help_text = field.description or ""
        if name == positional:
            p.add_argument(name, metavar=name.upper(), type=kind, help=help_text)
            continue
        if field.is_required():
            help_text += " (required)"
        elif field.default not in (None, False):
            help_text += f" (default: {field.default})"
        kwargs: dict[str, Any] = {"dest": name, "default": argparse.SUPPRESS, "help": help_text,
                                  "required": field.is_required(), **extra}  # fmt: skip
        if kind is not None and "action" not in extra:
            kwargs["type"] = kind
        p.add_argument("--" + name.replace("_", "-"), **kwargs)
    return p


def run_parser() -> argparse.ArgumentParser:
    return parser_for(
        MonitorConfig,
        PROG,
        "Check a run for rule-breaking (answers or other runs read, model APIs called, a "
        "submission written from literals, PaperBench's blacklist), optionally for plagiarism "
        "(--against) and with a model reviewing its log (--judge-model); writes "
        "RUN_DIR/monitor.json and prints a summary. Given a grid folder, checks every finished "
        f"run. For one file: {PROG} plagiarism --help.",
        RUN_EXAMPLE,
        positional="run_dir",
    )


def parse_monitor_config(argv: list[str]) -> MonitorConfig:
    p = run_parser()
    return config_from_flags(MonitorConfig, vars(p.parse_args(argv)), p.prog)
