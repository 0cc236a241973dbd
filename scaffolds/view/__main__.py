"""``python -m scaffolds.view PATH [--out FILE.html] [--open]``: the page of a run or a grid."""

from __future__ import annotations

import argparse
import sys
import webbrowser
from pathlib import Path

from pydantic import BaseModel, Field

from scaffolds.config import OneLineParser

PROG = "python -m scaffolds.view"
EXAMPLE = f"{PROG} runs/aide-mlebench-spaceship-titanic-20250101-120000 --open"


class ViewConfig(BaseModel):
    """What to draw and where."""

    path: Path = Field(
        description="A run folder (holds run.json) or a grid folder (holds results.jsonl)"
    )
    out: Path | None = Field(
        None, description="Page to write (default: view.html in a run, index.html in a grid)"
    )
    open: bool = Field(False, description="Open the page in the default web browser")


def parser() -> argparse.ArgumentParser:
    fields = ViewConfig.model_fields
    p = OneLineParser(
        prog=PROG,
        description=(
            "Write one self-contained HTML page (no network) of a run: header, grade, the "
            "transcript with search and filters, AIDE's tree, monitor flags; or of a grid: a "
            "row per run linking to its page, with the summary tables and plots."
        ),
        epilog=f"example:\n  {EXAMPLE}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("path", metavar="PATH", type=Path, help=fields["path"].description)
    p.add_argument("--out", type=Path, metavar="FILE.html", help=fields["out"].description)
    p.add_argument("--open", action="store_true", help=fields["open"].description)
    return p


def refresh_report(grid_dir: Path) -> None:
    """Write the grid's report (with the options its last one used) before its index is drawn
    from it; a grid with nothing to summarize yet is drawn without one."""
    from scaffolds.report import write_report

    try:
        write_report(grid_dir)
    except (ValueError, OSError) as exc:
        print(f"{PROG}: no summary: {exc}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    config = ViewConfig(**vars(parser().parse_args(argv)))
    from scaffolds.view.grid import is_grid, write_grid_index
    from scaffolds.view.load import NotARun
    from scaffolds.view.page import write_run_page

    path = config.path
    if config.out is not None and not config.out.parent.is_dir():
        print(f"{PROG}: error: --out: folder {config.out.parent} does not exist", file=sys.stderr)
        return 2
    try:
        if (path / "run.json").is_file():
            written = write_run_page(path, config.out)
        elif is_grid(path):
            refresh_report(path)
            written = write_grid_index(path, config.out)
        else:
            raise NotARun(f"{path} holds neither run.json (a run) nor results.jsonl (a grid)")
    except NotARun as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    print(written)
    if config.open:
        webbrowser.open(written.absolute().as_uri())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
