"""``python -m scaffolds.aide``: AIDE's solution-tree search on one task.

    python -m scaffolds.aide --model o1 --task mlebench/spaceship-titanic --preset mlebench
    python -m scaffolds.aide --resume runs/aide-mlebench-spaceship-titanic-20250101-120000
    python -m scaffolds.aide --model o1 --task mlebench/spaceship-titanic --parallel-nodes 4

The search itself lives in ``aide_tree``; this module is its command line.
"""

from __future__ import annotations

from aide_tree import Aide, AideConfig
from aide_tree.parallel import ParallelAide
from scaffolds.entry import main_for
from scaffolds.protocols import Task
from scaffolds.runtime import Run, RunSetupError, Scaffold

DESCRIPTION = (
    "AIDE: a tree search over whole solution scripts (draft, improve, debug), each run in a "
    "clean kernel and reviewed by a feedback model. Writes run.json, trajectory.jsonl, "
    "journal.jsonl, best_solution.py, submission/ and tree.html in the run folder."
)
EXAMPLE = (
    "python -m scaffolds.aide --model o1 --task demo/tabular-binary --steps 20 --time-limit 1h"
)


def make_scaffold(agent: type[Aide] | None = None) -> Scaffold:
    """The scaffold callable ``execute`` runs: a fresh ``agent`` over the run, until a limit
    (by default ``Aide``, or ``ParallelAide`` with ``--parallel-nodes`` above 1)."""

    def scaffold(run: Run) -> str:
        chosen = agent
        if chosen is None:
            several = getattr(run.config, "parallel_nodes", 1) > 1
            chosen = ParallelAide if several else Aide
        return chosen(run).search()

    return scaffold


def require_metric(task: Task) -> None:
    """AIDE ranks its solutions by a metric their scripts compute; a task graded only by a
    judge (``has_metric = False``, e.g. PaperBench) has none to rank by."""
    if not task.has_metric:
        raise RunSetupError(
            f"AIDE needs a task with a metric its solutions can compute; {task.id} has none "
            f"({task.benchmark} is graded by a judge): use scaffolds.basic or scaffolds.iterative"
        )


def main(argv: list[str] | None = None) -> int:
    return main_for(
        "aide",
        AideConfig,
        lambda _config: make_scaffold(),
        DESCRIPTION,
        EXAMPLE,
        argv,
        check_task=require_metric,
    )


if __name__ == "__main__":
    raise SystemExit(main())
