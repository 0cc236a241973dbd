"""``python -m scaffolds.monitor``: check a run (or a grid's runs), or one solution for plagiarism.

Exit status: 0 nothing flagged, 1 something flagged, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from pydantic import BaseModel

from scaffolds.config import OneLineParser, config_from_flags
from scaffolds.config import _flag_type as flag_type
from scaffolds.monitor.config import MonitorConfig, PlagiarismConfig

PROG = "python -m scaffolds.monitor"
RUN_EXAMPLE = (
    f"{PROG} runs/aide-mlebench-spaceship-titanic-20250101-120000 --against notebooks/ "
    "--judge-model gpt-4o-mini"
)
PLAGIARISM_EXAMPLE = (
    f"{PROG} plagiarism --code best_solution.py --against notebooks/spaceship-titanic"
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


def plagiarism_parser() -> argparse.ArgumentParser:
    return parser_for(
        PlagiarismConfig,
        f"{PROG} plagiarism",
        "Compare a solution (.py or .ipynb) with a folder of reference notebooks and scripts "
        "as Dolos does (normalised Python tokens, k-gram fingerprints selected by winnowing, "
        "the fraction of fingerprints shared); prints JSON: max_similarity, matches (best "
        "first), flagged.",
        PLAGIARISM_EXAMPLE,
    )


def parse_monitor_config(argv: list[str]) -> MonitorConfig:
    p = run_parser()
    return config_from_flags(MonitorConfig, vars(p.parse_args(argv)), p.prog)


def error(prog: str, message: str) -> int:
    print(f"{prog}: error: {message}", file=sys.stderr)
    return 2


def plagiarism_main(argv: list[str]) -> int:
    from scaffolds.monitor.plagiarism import compare

    p = plagiarism_parser()
    config = config_from_flags(PlagiarismConfig, vars(p.parse_args(argv)), p.prog)
    if not config.code.is_file() or config.code.suffix not in (".py", ".ipynb"):
        return error(p.prog, f"--code: {config.code} is not a .py or .ipynb file")
    if not config.against.is_dir():
        return error(p.prog, f"--against: {config.against} is not a folder")
    try:
        report = compare(config.code, config.against, config.k, config.threshold, config.cache)
    except (OSError, ValueError) as exc:
        return error(p.prog, f"--code: {config.code}: {exc}")
    print(json.dumps(report, indent=2))
    return 1 if report["flagged"] else 0


def run_main(argv: list[str]) -> int:
    from scaffolds.monitor.grid import monitor_grid
    from scaffolds.monitor.monitor import monitor_run, summary_lines, write_monitor

    config = parse_monitor_config(argv)
    if config.against is not None and not config.against.is_dir():
        return error(PROG, f"--against: {config.against} is not a folder")
    target = config.run_dir
    if not (target / "run.json").is_file():
        if (target / "results.jsonl").is_file() or (target / "grid.json").is_file():
            return 1 if monitor_grid(target, config) else 0
        return error(PROG, f"{target} holds neither run.json (a run) nor results.jsonl (a grid)")
    try:
        report, notes = monitor_run(target, config)
    except (OSError, ValueError) as exc:
        return error(PROG, f"{target}: {exc}")
    written = write_monitor(target, report)
    print("\n".join([*summary_lines(report, notes), f"wrote {written}"]))
    return 1 if report["flagged"] else 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["plagiarism"]:
        return plagiarism_main(argv[1:])
    return run_main(argv)
