"""``python -m scaffolds.ablate``: a grid of scaffold x model x task x seed runs, local or on Ray.

Each run is ``GRID_DIR/runs/<scaffold>__<model>__<task>__seed<k>/`` holding its scaffold's run
record; ``GRID_DIR/results.jsonl`` gets one row per run as it ends; the same command run again
skips finished runs and resumes the others; at the end ``scaffolds.report`` writes the tables
and plots.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from scaffolds.exit_codes import sigterm_interrupts
from scaffolds.grid.config import GridConfig, parse_grid_config
from scaffolds.grid.runner import GridSetupError, run_grid
from scaffolds.report import write_report

PROG = "python -m scaffolds.ablate"
DESCRIPTION = (
    "Run a scaffold x model x task x seed grid and compare medal rates with error bars. "
    "Rerunning the same command skips finished runs and resumes unfinished ones; a crashed run "
    "is recorded (runs/<name>/grid_error.txt, results.jsonl) and the grid goes on. "
    "Exit status: 0 every run ended normally, 1 some run crashed or ended in model_error or "
    "harness_error (the summary names them), 2 bad input, 130 interrupted."
)
EXAMPLE = (
    f"{PROG} --scaffolds aide,basic,iterative --models openai/gpt-4o,o3-mini "
    "--split lite --seeds 3 --out grids/lite --time-limit 24h --workers 4"
)


def last_step(config: GridConfig) -> Callable[[Path], list[Path]] | None:
    """What the grid does as it ends: monitor its finished runs (``--monitor``), then write
    the report (``--report``)."""
    if not config.monitor:
        return write_report if config.report else None
    from scaffolds.monitor import grid_monitor_config, monitor_grid, redraw_pages

    monitor_config = grid_monitor_config(config.out, config.monitor_args)  # bad flags: exit 2 now

    def monitor_then_report(grid_dir: Path) -> list[Path]:
        monitor_grid(
            grid_dir, monitor_config, echo=lambda line: print(f"grid: {line}", file=sys.stderr)
        )
        redraw_pages(grid_dir)
        return write_report(grid_dir) if config.report else []

    return monitor_then_report


def main(argv: list[str] | None = None) -> int:
    config = parse_grid_config(argv, PROG, DESCRIPTION, EXAMPLE)
    try:
        with sigterm_interrupts():  # SIGTERM stops the grid the way Ctrl-C does
            return run_grid(config, last_step(config))
    except GridSetupError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
