"""PaperBench's section of a grid's report: the replication score, per paper, and what the
judge cost.

PaperBench reports the mean replication score over papers, as mean ± SEM over seeds: for each
seed, the mean of the papers' scores (a planned run with no result, or a crashed one, scores
0; the normalised reward of a PaperBench grade is its replication score); then the mean and
standard error of those per-seed means; with the per-paper scores (mean ± SEM over seeds) and
the judge's cost, from the results rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scaffolds.protocols import CRASHED_STATUS, PlannedRun, ReportSection
from scaffolds.stats import MeanSem, mean_sem

BENCHMARK_PREFIX = "paperbench/"


@dataclass(frozen=True)
class ReplicationSummary:
    arm: str
    model: str
    score: MeanSem
    """Mean replication score over papers, mean ± SEM over seeds (0..1)."""
    by_paper: dict[str, MeanSem]
    """Each paper's score, mean ± SEM over seeds."""
    judge_cost_usd: float | None
    """What grading cost in all; None when no graded run knew its judge's cost."""
    ungraded: int
    """Finished runs with no score (no judge model, or --grade-later)."""


def replication_summaries(
    rows: list[dict[str, Any]], plan: list[PlannedRun]
) -> list[ReplicationSummary]:
    """One per scaffold x model that planned PaperBench tasks, over those tasks only."""
    by_key = {
        (r["scaffold"], r["model"], r["task"], int(r["seed"]), r.get("policy")): r for r in rows
    }
    groups: dict[tuple[str, str | None, str], list[PlannedRun]] = {}
    for run in plan:
        if run.task.startswith(BENCHMARK_PREFIX):
            groups.setdefault((run.scaffold, run.policy, run.model), []).append(run)
    out = []
    for (scaffold, policy, model), runs in groups.items():
        papers = list(dict.fromkeys(r.task for r in runs))
        seeds = sorted({r.seed for r in runs})
        cells = {
            (t, seed): by_key.get((scaffold, model, t, seed, policy))
            for t in papers
            for seed in seeds
        }
        scores = {key: _score(row) for key, row in cells.items()}
        costs = [
            r["judge_cost_usd"] for r in cells.values() if r and r.get("judge_cost_usd") is not None
        ]
        per_seed = [sum(scores[(t, seed)] for t in papers) / len(papers) for seed in seeds]
        out.append(
            ReplicationSummary(
                arm=runs[0].arm,
                model=model,
                score=mean_sem(per_seed),
                by_paper={t: mean_sem([scores[(t, seed)] for seed in seeds]) for t in papers},
                judge_cost_usd=float(sum(costs)) if costs else None,
                ungraded=sum(
                    1
                    for r in cells.values()
                    if r
                    and r.get("status") != CRASHED_STATUS
                    and r.get("normalized_reward") is None
                ),
            )
        )
    return out


def _score(row: dict[str, Any] | None) -> float:
    if row is None or row.get("status") == CRASHED_STATUS:
        return 0.0
    return float(row.get("normalized_reward") or 0.0)


def _pm(value: MeanSem) -> str:
    if value.mean != value.mean:
        return "n/a"
    sem = "NaN" if value.sem != value.sem else f"{value.sem:.3f}"
    return f"{value.mean:.3f} ± {sem}"


def replication_markdown(replications: list[ReplicationSummary]) -> str:
    """The PaperBench section of ``summary.md`` (empty when the grid ran no PaperBench task):
    the headline table, then the per-paper table."""
    if not replications:
        return ""
    lines = [
        "## PaperBench replication score",
        "",
        "Mean replication score over papers (0..1), mean ± SEM over seeds; a run with no "
        "result, a crashed one or an ungraded one counts 0. A run flagged by the blacklist "
        "monitor scores 0.",
        "",
        "| scaffold | model | replication score | judge cost (USD) | ungraded runs |",
        "|---|---|---|---|---|",
    ]
    for r in replications:
        cost = "unknown" if r.judge_cost_usd is None else f"{r.judge_cost_usd:.4f}"
        lines.append(f"| {r.arm} | `{r.model}` | {_pm(r.score)} | {cost} | {r.ungraded} |")
    papers = list(dict.fromkeys(p for r in replications for p in r.by_paper))
    lines += ["", "### Score per paper (mean ± SEM over seeds)", ""]
    lines += ["| paper | " + " | ".join(f"{r.arm} / `{r.model}`" for r in replications) + " |"]
    lines += ["|---|" + "---|" * len(replications)]
    for paper in papers:
        cells = [_pm(r.by_paper[paper]) if paper in r.by_paper else "-" for r in replications]
        lines.append(f"| {paper.removeprefix(BENCHMARK_PREFIX)} | " + " | ".join(cells) + " |")
    return "\n" + "\n".join(lines) + "\n"


def report_sections(rows: list[dict[str, Any]], plan: list[PlannedRun]) -> list[ReportSection]:
    """The PaperBench section; none when the grid ran no paper."""
    markdown = replication_markdown(replication_summaries(rows, plan))
    return [ReportSection(markdown)] if markdown else []
