"""``python -m scaffolds.monitor``: check a run (or a grid's runs), or one solution for plagiarism.

Exit status: 0 nothing flagged, 1 something flagged, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys

from scaffolds.config import config_from_flags
from scaffolds.monitor.config import PlagiarismConfig
from scaffolds.monitor.flags import PROG, parse_monitor_config, parser_for

PLAGIARISM_EXAMPLE = (
    f"{PROG} plagiarism --code best_solution.py --against notebooks/spaceship-titanic"
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
    from scaffolds.monitor.grid import monitor_grid, redraw_pages
    from scaffolds.monitor.monitor import monitor_run, redraw_page, summary_lines, write_monitor

    config = parse_monitor_config(argv)
    if config.against is not None and not config.against.is_dir():
        return error(PROG, f"--against: {config.against} is not a folder")
    target = config.run_dir
    if not (target / "run.json").is_file():
        if (target / "results.jsonl").is_file() or (target / "grid.json").is_file():
            flagged = monitor_grid(target, config)
            redraw_pages(target)
            return 1 if flagged else 0
        return error(PROG, f"{target} holds neither run.json (a run) nor results.jsonl (a grid)")
    try:
        report, notes = monitor_run(target, config)
    except (OSError, ValueError) as exc:
        return error(PROG, f"{target}: {exc}")
    written = write_monitor(target, report)
    redraw_page(target)
    print("\n".join([*summary_lines(report, notes), f"wrote {written}"]))
    return 1 if report["flagged"] else 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["plagiarism"]:
        return plagiarism_main(argv[1:])
    return run_main(argv)
