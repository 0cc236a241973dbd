"""PaperBench's view of a grid: the replication score, per paper, and what the judge cost.

PaperBench reports the mean replication score over papers, as mean ± SEM over seeds: for each
seed, the mean of the papers' scores (a planned run with no result, or a crashed one, scores
0); then the mean and standard error of those per-seed means. That is ``ComboSummary.reward``
(the normalised reward of a PaperBench grade is its replication score); this module adds the
per-paper scores (mean ± SEM over seeds) and the judge's cost, from the results rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scaffolds.grid.aggregate import ComboSummary, MeanSem, mean_sem, row_key
from scaffolds.grid.results import CRASHED

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


def is_paperbench(task: str) -> bool:
    return task.startswith(BENCHMARK_PREFIX)


def replication_summaries(
    summaries: list[ComboSummary], rows: list[dict[str, Any]]
) -> list[ReplicationSummary]:
    """One per scaffold x model that ran PaperBench tasks, with only those tasks per paper."""
    by_key = {row_key(r): r for r in rows}
    out = []
    for s in summaries:
        papers = [t for t in s.tasks if is_paperbench(t)]
        if not papers:
            continue
        cells = {
            (t, seed): by_key.get((s.scaffold, s.model, t, seed, s.policy))
            for t in papers
            for seed in s.seeds
        }
        scores = {key: _score(row) for key, row in cells.items()}
        costs = [
            r["judge_cost_usd"] for r in cells.values() if r and r.get("judge_cost_usd") is not None
        ]
        out.append(
            ReplicationSummary(
                arm=s.arm,
                model=s.model,
                score=s.reward,
                by_paper={t: mean_sem([scores[(t, seed)] for seed in s.seeds]) for t in papers},
                judge_cost_usd=float(sum(costs)) if costs else None,
                ungraded=sum(
                    1
                    for r in cells.values()
                    if r and r.get("status") != CRASHED and r.get("normalized_reward") is None
                ),
            )
        )
    return out


def _score(row: dict[str, Any] | None) -> float:
    if row is None or row.get("status") == CRASHED:
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
