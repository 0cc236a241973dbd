"""The paper's aggregates over one agent's results on a set of TAM tasks (Tables 2-4).

Each result is ``{task, made_submission, valid_submission, rank_pct, constraint_pass?}`` with
``rank_pct`` in (0, 1] (null when there is no valid score) and ``constraint_pass`` in [0, 1].

- A task without a valid score counts as rank 1.0 (the bottom of its leaderboard).
- With ``expected`` tasks (a split), a task missing from the results counts as failed: no
  submission, no valid one, rank 1.0, and constraint pass 0 when any present task was judged
  (null when none was: an unjudged grid has no constraint figure).
- ``made_submission_pct``, ``valid_submission_pct``: percentages of the tasks.
- ``constraint_pass_pct``: the mean per-task pass rate, in percent, over the tasks that were
  judged (null when none was).
- ``average_rank``: the mean rank; ``weighted_rank``: each task weighted by 1 / (number of
  evaluated tasks of its modality), so every modality counts the same (equal to the mean when
  modalities are balanced, as in Lite); ``by_difficulty``, ``by_modality``: mean ranks, keyed
  as the task ids spell them (``tabular``, ``easy``). All ranks are fractions in (0, 1], lower
  is better.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from statistics import fmean
from typing import Any

from bench_adapters.tam.specs import DIFFICULTIES, MODALITIES, task_info

FAILED_RANK = 1.0


def task_id_of(ref: str) -> str:
    """``tam/tabular/easy`` or ``tabular/easy`` -> ``tabular/easy``; ``ValueError`` otherwise."""
    task_id = ref.removeprefix("tam/")
    try:
        task_info(task_id)
    except KeyError:
        raise ValueError(f"{ref!r} is not a TAM task") from None
    return task_id


def _rank(row: dict[str, Any]) -> float:
    value = row.get("rank_pct")
    if value is None or not row.get("valid_submission"):
        return FAILED_RANK
    rank = float(value)
    if not 0.0 < rank <= 1.0:
        raise ValueError(f"{row['task']}: rank_pct {rank} is not a fraction in (0, 1]")
    return rank


def normalise(
    results: Iterable[dict[str, Any]], expected: list[str] | None = None
) -> dict[str, dict[str, Any]]:
    """Task id -> its result; missing expected tasks filled in as failed (see above)."""
    rows: dict[str, dict[str, Any]] = {}
    for n, row in enumerate(results, start=1):
        if not isinstance(row, dict) or "task" not in row:
            raise ValueError(f"result {n} has no task")
        task_id = task_id_of(str(row["task"]))
        if task_id in rows:
            raise ValueError(f"task {row['task']} appears more than once")
        rows[task_id] = {**row, "task": task_id}
    judged = any(r.get("constraint_pass") is not None for r in rows.values())
    for ref in expected or []:
        task_id = task_id_of(ref)
        rows.setdefault(
            task_id,
            {
                "task": task_id,
                "made_submission": False,
                "valid_submission": False,
                "rank_pct": None,
                "constraint_pass": 0.0 if judged else None,
                "missing": True,
            },
        )
    if not rows:
        raise ValueError("no results to aggregate")
    return rows


def aggregate(
    results: Iterable[dict[str, Any]], expected: list[str] | None = None
) -> dict[str, Any]:
    rows = normalise(results, expected)
    ranks = {t: _rank(r) for t, r in rows.items()}
    modality = {t: task_info(t).modality for t in rows}
    per_modality = Counter(modality.values())
    weights = {t: 1.0 / per_modality[modality[t]] for t in rows}
    judged = [
        float(r["constraint_pass"]) for r in rows.values() if r.get("constraint_pass") is not None
    ]
    n = len(rows)

    def mean_rank(keep: Any) -> float | None:
        picked = [ranks[t] for t in rows if keep(t)]
        return fmean(picked) if picked else None

    return {
        "tasks": n,
        "missing": sorted(t for t, r in rows.items() if r.get("missing")),
        "made_submission_pct": 100.0
        * sum(bool(r.get("made_submission")) for r in rows.values())
        / n,
        "valid_submission_pct": 100.0
        * sum(bool(r.get("valid_submission")) for r in rows.values())
        / n,
        "constraint_pass_pct": 100.0 * fmean(judged) if judged else None,
        "average_rank": fmean(ranks.values()),
        "weighted_rank": sum(ranks[t] * weights[t] for t in rows) / sum(weights.values()),
        "by_difficulty": {
            d: v
            for d in DIFFICULTIES
            if (v := mean_rank(lambda t, d=d: task_info(t).difficulty == d)) is not None
        },
        "by_modality": {
            m: v
            for m in MODALITIES
            if (v := mean_rank(lambda t, m=m: modality[t] == m)) is not None
        },
    }
