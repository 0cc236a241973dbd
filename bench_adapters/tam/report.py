"""TAM-Bench's section of a grid's report: the paper's Tables 2-4, one row per scaffold x model.

For each seed, the TAM tasks planned for the combination are aggregated as the paper does
(``bench_adapters.tam.aggregate``: a task without a valid score ranks 1.0, a planned task with no
result or a crashed run counts as failed); each figure is then the mean over seeds ± SEM (NaN
with one seed). Percentages are in %; ranks are shown in % of the leaderboard, lower is better.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from typing import Any

from scaffolds.protocols import CRASHED_STATUS, PlannedRun, ReportSection
from scaffolds.stats import MeanSem, mean_sem

TAM_CSV = "tam_summary.csv"
HEADLINE = {
    "made_submission_pct": "Made submission (%)",
    "valid_submission_pct": "Valid submission (%)",
    "constraint_pass_pct": "Constraint pass (%)",
    "average_rank": "Average rank (%)",
    "weighted_rank": "Weighted rank (%)",
}


@dataclass
class TamSummary:
    scaffold: str
    model: str
    tasks: list[str]
    seeds: list[int]
    headline: dict[str, MeanSem] = field(default_factory=dict)
    by_difficulty: dict[str, MeanSem] = field(default_factory=dict)
    by_modality: dict[str, MeanSem] = field(default_factory=dict)


def _result(row: dict[str, Any] | None) -> dict[str, Any] | None:
    if row is None or row.get("status") == CRASHED_STATUS:
        return None
    return {
        "task": row["task"],
        "made_submission": bool(row.get("made_submission")),
        "valid_submission": bool(row.get("valid_submission")),
        "rank_pct": row.get("rank_pct"),
        "constraint_pass": row.get("constraint_pass"),
    }


def _over_seeds(values: list[float | None], scale: float) -> MeanSem:
    known = [scale * v for v in values if v is not None]
    return mean_sem(known) if known else MeanSem(math.nan, math.nan)


def tam_summaries(rows: list[dict[str, Any]], plan: list[PlannedRun]) -> list[TamSummary]:
    """One summary per scaffold x model that planned TAM tasks, in plan order."""
    from bench_adapters.tam.aggregate import aggregate

    def row_key(r: dict[str, Any]) -> tuple[str, str | None, str, str, int]:
        return (r["scaffold"], r.get("policy"), r["model"], r["task"], int(r["seed"]))

    by_key = {row_key(r): r for r in rows}
    if not plan:  # a results file alone: every run it mentions
        plan = [PlannedRun(k[0], k[2], k[3], k[4], policy=k[1]) for k in by_key]
    groups: dict[tuple[str, str | None, str], list[PlannedRun]] = {}
    for spec in plan:  # one row per arm (AIDE once per policy) x model
        if spec.task.startswith("tam/"):
            groups.setdefault((spec.scaffold, spec.policy, spec.model), []).append(spec)
    out = []
    for (scaffold, policy, model), specs in groups.items():
        tasks = list(dict.fromkeys(s.task for s in specs))
        seeds = sorted({s.seed for s in specs})
        per_seed = []
        for seed in seeds:
            found = [by_key.get((scaffold, policy, model, t, seed)) for t in tasks]
            results = [_result(row) for row in found]
            per_seed.append(aggregate([r for r in results if r is not None], tasks))
        summary = TamSummary(specs[0].arm, model, tasks, seeds)
        for key in HEADLINE:
            scale = 100.0 if key.endswith("rank") else 1.0
            summary.headline[key] = _over_seeds([a[key] for a in per_seed], scale)
        for name, target in (
            ("by_difficulty", summary.by_difficulty),
            ("by_modality", summary.by_modality),
        ):
            for group in per_seed[0][name]:
                target[group] = _over_seeds([a[name].get(group) for a in per_seed], 100.0)
        out.append(summary)
    return out


def _cell(value: MeanSem) -> str:
    if math.isnan(value.mean):
        return "n/a"
    return f"{value.mean:.1f}" if math.isnan(value.sem) else f"{value.mean:.1f} ± {value.sem:.1f}"


def _table(title: str, summaries: list[TamSummary], part: str, labels: dict[str, str]) -> list[str]:
    lines = [f"### {title}", "", "| scaffold | model | " + " | ".join(labels.values()) + " |"]
    lines.append("|---|---|" + "---|" * len(labels))
    for s in summaries:
        values = getattr(s, part)
        cells = [_cell(values.get(k, MeanSem(math.nan, math.nan))) for k in labels]
        lines.append(f"| {s.scaffold} | `{s.model}` | " + " | ".join(cells) + " |")
    return [*lines, ""]


def tam_markdown(summaries: list[TamSummary]) -> str:
    """The TAM section of ``summary.md`` (empty when the grid ran no TAM task)."""
    if not summaries:
        return ""
    seeds = max(len(s.seeds) for s in summaries)
    tasks = max(len(s.tasks) for s in summaries)
    groups = list(dict.fromkeys(k for s in summaries for k in s.by_modality))
    lines = [
        "",
        "## TAM-Bench (the paper's Tables 2-4)",
        "",
        f"{tasks} TAM task(s), {seeds} seed(s); mean ± SEM over seeds. A task without a valid "
        "score ranks 100% (the bottom of its leaderboard); ranks are % of the leaderboard, "
        "lower is better. Constraint pass: mean share of a task's special instructions its "
        "final code follows, over the judged tasks (n/a without --judge-model).",
        "",
    ]
    lines += _table("Submissions, constraints and rank (Table 2)", summaries, "headline", HEADLINE)
    difficulty = {d: d.title() for d in ("easy", "medium", "hard")}
    lines += _table(
        "Average rank by difficulty (%, Table 3)", summaries, "by_difficulty", difficulty
    )
    lines += _table(
        "Average rank by modality (%, Table 4)", summaries, "by_modality", {g: g for g in groups}
    )
    return "\n".join(lines)


def tam_csv(summaries: list[TamSummary]) -> str:
    """The tables as CSV (``tam_summary.csv``), one row per scaffold x model."""
    rows = []
    for s in summaries:
        row: dict[str, Any] = {
            "scaffold": s.scaffold,
            "model": s.model,
            "tasks": len(s.tasks),
            "seeds": len(s.seeds),
        }
        for part in (s.headline, s.by_difficulty, s.by_modality):
            for key, value in part.items():
                name = key if key in HEADLINE else f"rank_{key.lower()}"
                row[f"{name}_mean"] = round(value.mean, 6)
                row[f"{name}_sem"] = round(value.sem, 6)
        rows.append(row)
    out = io.StringIO(newline="")
    writer = csv.DictWriter(out, fieldnames=list(dict.fromkeys(k for r in rows for k in r)))
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def report_sections(rows: list[dict[str, Any]], plan: list[PlannedRun]) -> list[ReportSection]:
    """The TAM section and ``tam_summary.csv``; none when the grid ran no TAM task."""
    summaries = tam_summaries(rows, plan)
    if not summaries:
        return []
    return [ReportSection(tam_markdown(summaries), {TAM_CSV: tam_csv(summaries)})]
