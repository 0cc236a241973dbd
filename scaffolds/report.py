"""``python -m scaffolds.report GRID_DIR``: summary tables and plots of an ablation grid.

Writes ``summary.csv``, ``summary.md``, ``any_medal.png``, ``pass_at_k.png`` and the options used
(``report.json``) into GRID_DIR, and with ``--disclosure`` the grid's disclosure
(``scaffolds.disclosure``), from ``results.jsonl`` (the latest row per run, plus any
finished run the file lags behind) and
``grid.json`` (the planned runs: a planned run with no result counts as a failure). See
:mod:`scaffolds.grid.aggregate` for the aggregation (MLE-bench's: per-seed rates, mean ± SEM).
Each benchmark's adapter may add sections of its own (``HasReportSections``): TAM-Bench's
Tables 2-4 and ``tam_summary.csv``, PaperBench's replication score with per-paper scores and
judge cost, MLE-bench's known issues of the competitions the grid ran.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from scaffolds.config import OneLineParser
from scaffolds.grid.aggregate import RATES, ComboSummary, summarize
from scaffolds.grid.plan import PLAN_FILE, RunSpec, planned_runs
from scaffolds.grid.results import RESULTS_FILE, current_rows
from scaffolds.protocols import PlannedRun, ReportSection
from scaffolds.record import write_json_atomic

PROG = "python -m scaffolds.report"
EXAMPLE = f"{PROG} grids/lite-ablation\n  {PROG} grids/lite-ablation --disclosure --notes notes.md"
SUMMARY_CSV = "summary.csv"
SUMMARY_MD = "summary.md"
REPORT_OPTIONS = "report.json"


class ReportConfig(BaseModel):
    """What to summarize and how."""

    grid_dir: Path = Field(description="Grid folder holding results.jsonl (and grid.json)")
    plots: bool = Field(True, description="Also write any_medal.png and pass_at_k.png")
    disqualify_flagged: bool = Field(
        False,
        description="Count runs the monitor flagged (runs/<name>/monitor.json) as no medal; "
        "the report says how many it removed",
    )
    disclosure: bool = Field(
        False,
        description="Also write DISCLOSURE.md and disclosure.json (models, settings, hardware, "
        "prompts, integrity, headline) from the runs' records; exit 1 when a run's record does "
        "not show that no score from the private answers reached its agent",
    )
    notes: Path | None = Field(
        None, description="A file whose text the disclosure adds under Notes (with --disclosure)"
    )


def csv_rows(summaries: list[ComboSummary]) -> list[dict[str, Any]]:
    kmax = max((len(s.pass_at) for s in summaries), default=0)
    widths = any(s.parallel_nodes is not None for s in summaries)  # a grid with --parallel-nodes
    out = []
    for s in summaries:
        row: dict[str, Any] = {
            "scaffold": s.scaffold,
            "policy": s.policy or "",
            **({"parallel_nodes": s.parallel_nodes or ""} if widths else {}),
            "model": s.model,
            "tasks": len(s.tasks),
            "seeds": len(s.seeds),
            "runs_planned": s.runs_planned,
            "runs_finished": s.runs_finished,
            "runs_crashed": s.runs_crashed,
        }
        for key in RATES:
            row[f"{key}_pct_mean"] = s.rates[key].mean
            row[f"{key}_pct_sem"] = s.rates[key].sem
        row["normalized_reward_mean"] = s.reward.mean
        row["normalized_reward_sem"] = s.reward.sem
        for k in range(1, kmax + 1):
            row[f"pass@{k}_pct"] = s.pass_at[k - 1] if k <= len(s.pass_at) else math.nan
        row["tokens_total"] = s.tokens_total
        row["tokens_per_run"] = s.tokens_per_run
        row["cost_usd_total"] = s.cost_usd_total
        row["cost_usd_per_run"] = s.cost_usd_per_run
        out.append({k: round(v, 6) if isinstance(v, float) else v for k, v in row.items()})
    return out


def write_csv(summaries: list[ComboSummary], path: Path) -> Path:
    rows = csv_rows(summaries)
    with path.open("w", newline="", encoding="utf-8") as f:
        if rows:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    return path


def _pm(value: Any, digits: int) -> str:
    if value.mean != value.mean:
        return "n/a"
    sem = "NaN" if math.isnan(value.sem) else f"{value.sem:.{digits}f}"
    return f"{value.mean:.{digits}f} ± {sem}"


def policy_note(summaries: list[ComboSummary]) -> list[str]:
    """A line naming the AIDE policies compared, when the grid compares some."""
    policies = list(dict.fromkeys(s.policy for s in summaries if s.policy is not None))
    if not policies:
        return []
    return [
        "",
        f"AIDE runs once per search policy ({', '.join(policies)}), shown as aide-<policy>; "
        "other scaffolds take no policy.",
    ]


def markdown(summaries: list[ComboSummary], plots: bool) -> str:
    seeds = max((len(s.seeds) for s in summaries), default=0)
    tasks = list(dict.fromkeys(t for s in summaries for t in s.tasks))
    lines = [
        "# Grid summary",
        "",
        f"{len(tasks)} task(s), {seeds} seed(s). Rates are the percentage of tasks with the "
        "property, computed per seed, then mean ± SEM over seeds (SEM = std with ddof=1 / "
        "sqrt(seeds); NaN with a single seed). Runs with no result or that crashed count as "
        "no submission, no medal, reward 0. pass@k: 1 - C(n-c, k) / C(n, k) per task (n seeds, "
        "c with any medal), averaged over tasks, in %.",
        *policy_note(summaries),
        "",
        "| scaffold | model | runs (finished/planned, crashed) | "
        + " | ".join(f"{label} (%)" for label in RATES.values())
        + " | normalized reward |",
        "|---|---|---|" + "---|" * (len(RATES) + 1),
    ]
    for s in summaries:
        cells = [_pm(s.rates[k], 1) for k in RATES] + [_pm(s.reward, 3)]
        runs = f"{s.runs_finished}/{s.runs_planned}, {s.runs_crashed}"
        lines.append(f"| {s.arm} | `{s.model}` | {runs} | " + " | ".join(cells) + " |")
    lines += ["", "## pass@k (% of tasks, any medal)", ""]
    lines += ["| scaffold | model | " + " | ".join(f"pass@{k}" for k in range(1, seeds + 1)) + " |"]
    lines += ["|---|---|" + "---|" * seeds]
    for s in summaries:
        cells = [f"{v:.1f}" for v in s.pass_at] + [""] * (seeds - len(s.pass_at))
        lines.append(f"| {s.arm} | `{s.model}` | " + " | ".join(cells) + " |")
    lines += [
        "",
        "## Tokens and cost",
        "",
        "| scaffold | model | tokens | tokens/run | cost (USD) | cost/run (USD) |",
    ]
    lines += ["|---|---|---|---|---|---|"]
    for s in summaries:
        cost = "unknown" if s.cost_usd_total is None else f"{s.cost_usd_total:.4f}"
        per = "unknown" if s.cost_usd_per_run is None else f"{s.cost_usd_per_run:.4f}"
        per_tokens = "n/a" if math.isnan(s.tokens_per_run) else f"{s.tokens_per_run:,.0f}"
        lines.append(
            f"| {s.arm} | `{s.model}` | {s.tokens_total:,} | {per_tokens} | {cost} | {per} |"
        )
    lines += ["", "## Medals per task (seeds with any medal / seeds)", ""]
    lines += ["| task | " + " | ".join(f"{s.arm} / `{s.model}`" for s in summaries) + " |"]
    lines += ["|---|" + "---|" * len(summaries)]
    for task in tasks:
        cells = [
            f"{s.medals_by_task[task]}/{len(s.seeds)}" if task in s.medals_by_task else "-"
            for s in summaries
        ]
        lines.append(f"| {task} | " + " | ".join(cells) + " |")
    if plots:
        lines += ["", "![any-medal rate](any_medal.png)", "", "![pass@k](pass_at_k.png)"]
    return "\n".join(lines) + "\n"


def write_report(
    grid_dir: Path, plots: bool | None = None, disqualify_flagged: bool | None = None
) -> list[Path]:
    """Summarize the grid in ``grid_dir``; return the files written. Runs a monitor
    disqualified (and, with ``disqualify_flagged``, flagged) count as no medal. An option left
    None is what the grid's last report used (``report.json``), so redrawing the report (the
    grid's index, a resumed grid) never quietly changes its tables."""
    from scaffolds.monitor.grid import monitor_section

    last = last_report_options(grid_dir)
    plots = last["plots"] if plots is None else plots
    if disqualify_flagged is None:
        disqualify_flagged = last["disqualify_flagged"]
    write_json_atomic(
        grid_dir / REPORT_OPTIONS, {"plots": plots, "disqualify_flagged": disqualify_flagged}
    )

    rows, monitored = monitor_section(
        list(current_rows(grid_dir).values()), grid_dir, disqualify_flagged
    )
    plan = planned_runs(grid_dir)
    summaries = summarize(rows, plan)
    written = [write_csv(summaries, grid_dir / SUMMARY_CSV)]
    sections = benchmark_sections(rows, plan)
    md = grid_dir / SUMMARY_MD
    md.write_text(
        markdown(summaries, plots and bool(summaries))
        + "".join(s.markdown for s in sections)
        + monitored,
        "utf-8",
    )
    written.append(md)
    for section in sections:
        for name, text in section.files.items():
            (grid_dir / name).write_text(text, "utf-8")
            written.append(grid_dir / name)
    if plots and summaries:
        from scaffolds.grid.plots import (
            ANY_MEDAL_PNG,
            PASS_AT_K_PNG,
            any_medal_plot,
            pass_at_k_plot,
        )

        written.append(any_medal_plot(summaries, grid_dir / ANY_MEDAL_PNG))
        written.append(pass_at_k_plot(summaries, grid_dir / PASS_AT_K_PNG))
    return written


def benchmark_sections(rows: list[dict[str, Any]], plan: list[RunSpec]) -> list[ReportSection]:
    """Each benchmark's own sections (``bench_adapters.registry.HasReportSections``), in the
    registry's order. Without a plan, the runs the rows name stand for it."""
    from bench_adapters.registry import HasReportSections, benchmarks, get_benchmark

    planned = [PlannedRun(s.scaffold, s.model, s.task, s.seed, s.policy) for s in plan]
    if not planned:
        keys = {(r["scaffold"], r["model"], r["task"], int(r["seed"]), r.get("policy")): 0
                for r in rows}  # fmt: skip
        planned = [PlannedRun(*key) for key in keys]
    sections: list[ReportSection] = []
    for name in benchmarks():
        adapter = get_benchmark(name)
        if isinstance(adapter, HasReportSections):
            sections += adapter.report_sections(rows, planned)
    return sections


def last_report_options(grid_dir: Path) -> dict[str, bool]:
    """The options of the grid's last report; the defaults when there was none."""
    options = {"plots": True, "disqualify_flagged": False}
    try:
        saved = json.loads((grid_dir / REPORT_OPTIONS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return options
    if isinstance(saved, dict):
        options.update({k: v for k, v in saved.items() if k in options and isinstance(v, bool)})
    return options


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(
        prog=PROG,
        description=(
            "Summarize an ablation grid: summary.csv, summary.md and PNG plots (any-medal rate "
            "with SEM bars, pass@k curves) per scaffold x model."
        ),
        epilog=f"example:\n  {EXAMPLE}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    fields = ReportConfig.model_fields
    parser.add_argument(
        "grid_dir", metavar="GRID_DIR", type=Path, help=fields["grid_dir"].description
    )
    parser.add_argument(
        "--plots",
        action=argparse.BooleanOptionalAction,
        default=True,
        help=fields["plots"].description,
    )
    parser.add_argument(
        "--disqualify-flagged", action="store_true", help=fields["disqualify_flagged"].description
    )
    parser.add_argument("--disclosure", action="store_true", help=fields["disclosure"].description)
    parser.add_argument("--notes", metavar="FILE", type=Path, help=fields["notes"].description)
    config = ReportConfig(**vars(parser.parse_args(argv)))
    grid = config.grid_dir
    if not (grid / RESULTS_FILE).is_file() and not (grid / PLAN_FILE).is_file():
        print(
            f"{PROG}: error: {grid} holds no {RESULTS_FILE} (not a grid folder?)", file=sys.stderr
        )
        return 2
    notes = None
    if config.notes is not None:
        try:
            notes = config.notes.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            print(f"{PROG}: error: cannot read --notes {config.notes}: {exc}", file=sys.stderr)
            return 2
    try:
        written = write_report(grid, config.plots, config.disqualify_flagged)
    except ValueError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    excluded = 0
    if config.disclosure:
        from scaffolds.disclosure import write_disclosure

        disclosed, excluded = write_disclosure(grid, notes)
        written += disclosed
    print("wrote " + ", ".join(str(p) for p in written))
    if excluded:
        print(
            f"{PROG}: {excluded} run(s) left out of the headline: their records do not show "
            "that no score from the private answers reached the agent (see DISCLOSURE.md)",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
