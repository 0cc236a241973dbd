"""Per scaffold x model summaries, aggregated the way MLE-bench reports results.

For each seed, a rate is the percentage of the task set with the property; the summary is the
mean over seeds and its standard error, std(ddof=1) / sqrt(seeds). With a single seed the SEM
is NaN (undefined), never 0. A planned run with no result, or one that crashed, counts as no
submission, no medal and reward 0. pass@k uses the unbiased estimator 1 - C(n-c, k) / C(n, k)
per task (n seeds, c of them with a medal), averaged over tasks.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any

from scaffolds.grid.plan import RunKey, RunSpec
from scaffolds.grid.results import CRASHED
from scaffolds.grid.runstate import UNFINISHED
from scaffolds.stats import MeanSem, mean_sem

RATES = {
    "made_submission": "Made submission",
    "valid_submission": "Valid submission",
    "above_median": "Above median",
    "any_medal": "Any medal",
    "gold_medal": "Gold medal",
}
"""Row flag -> label; each becomes a percentage of tasks per seed."""


def pass_at_k(n: int, c: int, k: int) -> float:
    """Probability that at least one of k runs drawn from n (c of them passing) passes."""
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"pass@k needs 0 <= c <= n and 1 <= k <= n (n={n}, c={c}, k={k})")
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


@dataclass
class ComboSummary:
    """One scaffold (with its AIDE policy, if the grid compares policies) x model over its task
    set and seeds."""

    scaffold: str
    model: str
    tasks: list[str]
    seeds: list[int]
    runs_planned: int
    runs_reported: int
    """Planned runs with a row (finished, crashed or interrupted)."""
    runs_finished: int
    runs_crashed: int
    rates: dict[str, MeanSem]
    """Percent of tasks, per :data:`RATES` key."""
    reward: MeanSem
    """Mean normalized reward over tasks (0..1)."""
    pass_at: list[float]
    """pass@k in percent for k = 1 .. len(seeds) (a medal counts as a pass)."""
    tokens_total: int
    cost_usd_total: float | None
    """None when no run of this combo knew its cost."""
    medals_by_task: dict[str, int] = field(default_factory=dict)
    policy: str | None = None
    """AIDE's search policy in a grid run with ``--policies``; None otherwise."""
    parallel_nodes: int | None = None
    """AIDE's nodes in flight in a grid run with ``--parallel-nodes``; None otherwise."""

    @property
    def arm(self) -> str:
        """The scaffold, with its policy and nodes in flight when it has them: ``aide-mcts-n4``."""
        return RunSpec(self.scaffold, "", "", 0, self.policy, self.parallel_nodes).arm

    @property
    def tokens_per_run(self) -> float:
        return self.tokens_total / self.runs_reported if self.runs_reported else math.nan

    @property
    def cost_usd_per_run(self) -> float | None:
        if self.cost_usd_total is None or not self.runs_reported:
            return None
        return self.cost_usd_total / self.runs_reported


def _scored(row: dict[str, Any] | None) -> dict[str, Any] | None:
    """The row whose grade counts: none for a crashed run, whatever its folder holds."""
    return None if row is None or row.get("status") == CRASHED else row


def _flag(row: dict[str, Any] | None, key: str) -> bool:
    return bool(row and row.get(key))


def summarize_combo(
    scaffold: str,
    model: str,
    specs: list[RunSpec],
    rows: dict[RunKey, dict[str, Any]],
    policy: str | None = None,
    parallel_nodes: int | None = None,
) -> ComboSummary:
    tasks = list(dict.fromkeys(s.task for s in specs))
    seeds = sorted({s.seed for s in specs})
    present = [r for s in specs if (r := rows.get(s.key)) is not None]
    cell = {(s.task, s.seed): _scored(rows.get(s.key)) for s in specs}
    rates = {
        key: mean_sem(
            [
                100.0 * sum(_flag(cell.get((t, seed)), key) for t in tasks) / len(tasks)
                for seed in seeds
            ]
        )
        for key in RATES
    }
    rewards = [
        statistics.fmean(
            float((cell.get((t, seed)) or {}).get("normalized_reward") or 0.0) for t in tasks
        )
        for seed in seeds
    ]
    medals = {t: sum(_flag(cell.get((t, seed)), "any_medal") for seed in seeds) for t in tasks}
    n = len(seeds)
    pass_at = [
        100.0 * statistics.fmean(pass_at_k(n, medals[t], k) for t in tasks) for k in range(1, n + 1)
    ]
    costs = [r["cost_usd"] for r in present if r.get("cost_usd") is not None]
    return ComboSummary(
        scaffold=scaffold,
        model=model,
        tasks=tasks,
        seeds=seeds,
        runs_planned=len(specs),
        runs_reported=len(present),
        runs_finished=sum(r.get("status") not in UNFINISHED | {CRASHED} for r in present),
        runs_crashed=sum(r.get("status") == CRASHED for r in present),
        rates=rates,
        reward=mean_sem(rewards),
        pass_at=pass_at,
        tokens_total=sum(int(r.get("tokens") or 0) for r in present),
        cost_usd_total=float(sum(costs)) if costs else None,
        medals_by_task=medals,
        policy=policy,
        parallel_nodes=parallel_nodes,
    )


def row_key(row: dict[str, Any]) -> RunKey:
    """``RunSpec.key`` of the run a row reports (no policy in rows written before policies,
    no nodes in flight in rows written before those)."""
    policy, nodes = row.get("policy"), row.get("parallel_nodes")
    return (
        str(row["scaffold"]),
        str(row["model"]),
        str(row["task"]),
        int(row["seed"]),
        None if policy is None else str(policy),
        None if nodes is None else int(nodes),
    )


def summarize(rows: list[dict[str, Any]], plan: list[RunSpec] | None = None) -> list[ComboSummary]:
    """One summary per scaffold (x AIDE policy) x model, in plan order. Without a plan (a
    results file alone), the plan is every scaffold x model x task x seed the rows mention."""
    by_key = {row_key(r): r for r in rows}
    if not plan:
        arms = list(dict.fromkeys((k[0], k[4], k[5]) for k in by_key))
        models = list(dict.fromkeys(k[1] for k in by_key))
        tasks = list(dict.fromkeys(k[2] for k in by_key))
        seeds = sorted({k[3] for k in by_key})
        combos = {(k[0], k[4], k[5], k[1]) for k in by_key}
        plan = [
            RunSpec(s, m, t, seed, p, n)
            for s, p, n in arms
            for m in models
            if (s, p, n, m) in combos
            for t in tasks
            for seed in seeds
        ]
    groups: dict[tuple[str, str | None, int | None, str], list[RunSpec]] = {}
    for spec in plan:
        groups.setdefault((spec.scaffold, spec.policy, spec.parallel_nodes, spec.model), []).append(
            spec
        )
    arm_rank = {
        a: i
        for i, a in enumerate(dict.fromkeys((s.scaffold, s.policy, s.parallel_nodes) for s in plan))
    }
    model_rank = {m: i for i, m in enumerate(dict.fromkeys(spec.model for spec in plan))}
    order = sorted(groups, key=lambda spnm: (arm_rank[spnm[:3]], model_rank[spnm[3]]))
    return [summarize_combo(s, m, groups[(s, p, n, m)], by_key, p, n) for s, p, n, m in order]
