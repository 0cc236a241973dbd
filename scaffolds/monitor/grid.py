"""Monitors and grids: monitor every finished run of a grid (``scaffolds.ablate --monitor``), and
the report's section on flagged runs (``scaffolds.report [--disqualify-flagged]``).

In the report a run counts as no medal when its monitor.json says ``disqualified`` (PaperBench's
blacklist, or a monitor run with ``--disqualify-flagged``) and, with ``--disqualify-flagged``,
whenever it is ``flagged``; the section says how many runs, and medals, that removed.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

from scaffolds.monitor.config import MonitorConfig
from scaffolds.monitor.monitor import MONITOR_FILE

MEDAL_FIELDS = ("any_medal", "gold_medal", "silver_medal", "bronze_medal")
SHOWN_RUNS = 50


def finished_runs(grid_dir: Path) -> list[Path]:
    """Run folders of the grid whose run.json is final (crashed runs, with grid_error.txt, not)."""
    from scaffolds.grid.runstate import ERROR_FILE, is_final, read_run_json

    runs = grid_dir / "runs"
    folders = sorted(p for p in runs.iterdir() if p.is_dir()) if runs.is_dir() else []
    return [p for p in folders if is_final(read_run_json(p)) and not (p / ERROR_FILE).exists()]


def monitor_grid(grid_dir: Path, config: MonitorConfig, echo: Any = print) -> int:
    """Monitor every finished run with ``config`` (its ``run_dir`` aside); returns how many were
    flagged. A run the monitor cannot read is reported, never raised."""
    from scaffolds.monitor.monitor import monitor_run, write_monitor

    flagged = 0
    for run_dir in finished_runs(grid_dir):
        try:
            report, _ = monitor_run(run_dir, config.model_copy(update={"run_dir": run_dir}))
            write_monitor(run_dir, report)
        except Exception as exc:  # one unreadable run must not stop the grid's last step
            echo(f"monitor: {run_dir.name}: {type(exc).__name__}: {exc}")
            continue
        flagged += bool(report["flagged"])
        state = f"flagged ({', '.join(flag_names(report))})" if report["flagged"] else "clean"
        echo(f"monitor: {run_dir.name}: {state}")
    return flagged


def redraw_pages(grid_dir: Path) -> None:
    """Redraw the page of every finished run of the grid that has one (after ``monitor_grid``
    wrote their monitor.json)."""
    from scaffolds.monitor.monitor import redraw_page

    for run_dir in finished_runs(grid_dir):
        redraw_page(run_dir)


def grid_monitor_config(grid_dir: Path, monitor_args: str | None = None) -> MonitorConfig:
    """The monitor's config from ``monitor_args``, flags of ``python -m scaffolds.monitor``; bad
    flags exit 2 with one line naming the flag, as the command would (call it before the grid
    starts)."""
    from scaffolds.monitor.flags import PROG, parse_monitor_config

    config = parse_monitor_config([str(grid_dir), *shlex.split(monitor_args or "")])
    if config.against is not None and not config.against.is_dir():
        print(f"{PROG}: error: --against: {config.against} is not a folder", file=sys.stderr)
        raise SystemExit(2)
    return config


def read_monitor(run_dir: Path) -> dict[str, Any] | None:
    try:
        report = json.loads((run_dir / MONITOR_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return report if isinstance(report, dict) else None


def flag_names(report: dict[str, Any]) -> list[str]:
    names = [str(c.get("name")) for c in report.get("checks") or [] if c.get("flagged")]
    if (report.get("plagiarism") or {}).get("flagged"):
        names.append(f"plagiarism {report['plagiarism'].get('max_similarity', 0):.0%}")
    verdicts = (report.get("review") or {}).get("verdicts") or []
    names += ["review"] * any(v.get("flagged") and v.get("valid") for v in verdicts)
    return names


def monitor_section(
    rows: list[dict[str, Any]], grid_dir: Path, disqualify_flagged: bool = False
) -> tuple[list[dict[str, Any]], str]:
    """The rows with disqualified runs counted as no medal, and the report's monitor section
    (empty when no run has a monitor.json)."""
    out, flagged, removed, medals = [], [], 0, 0
    monitored = 0
    for row in rows:
        run_dir = grid_dir / str(row.get("run_dir") or Path("runs") / str(row.get("run")))
        report = read_monitor(run_dir)
        if report is None:
            out.append(row)
            continue
        monitored += 1
        if report.get("flagged") or report.get("disqualified"):
            flagged.append((row, report))
        if report.get("disqualified") or (disqualify_flagged and report.get("flagged")):
            removed += 1
            medals += bool(row.get("any_medal"))
            row = {**row, **dict.fromkeys(MEDAL_FIELDS, False)}
        out.append(row)
    if not monitored:
        return out, ""
    lines = ["", "## Monitor", "",
             f"{monitored} of {len(rows)} run(s) monitored; {len(flagged)} flagged."]  # fmt: skip
    if removed or disqualify_flagged:
        why = "flagged or disqualified" if disqualify_flagged else "disqualified"
        lines.append(
            f"Counted as no medal: {removed} {why} run(s), which removed {medals} medal(s) "
            "from the tables above."
        )
    elif flagged:
        lines.append("Flags are advisory: medals still count (--disqualify-flagged removes them).")
    if flagged:
        lines += ["", "| run | task | medal | flagged by | disqualified |", "|---|---|---|---|---|"]
        for row, report in flagged[:SHOWN_RUNS]:
            medal = "yes" if row.get("any_medal") else "no"
            by = ", ".join(flag_names(report)) or "-"
            gone = "yes" if report.get("disqualified") else "no"
            lines.append(f"| {row.get('run')} | {row.get('task')} | {medal} | {by} | {gone} |")
        if len(flagged) > SHOWN_RUNS:
            lines.append(f"\n... and {len(flagged) - SHOWN_RUNS} more flagged run(s).")
    return out, "\n".join(lines) + "\n"
