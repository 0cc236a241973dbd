"""Ablation grids: plan runs, execute them locally or on Ray, keep results, summarize them.

``python -m scaffolds.ablate`` drives a grid; ``python -m scaffolds.report`` summarizes one.
"""

from scaffolds.grid.aggregate import ComboSummary, MeanSem, mean_sem, pass_at_k, summarize
from scaffolds.grid.config import GridConfig
from scaffolds.grid.plan import RunSpec, plan_runs, safe_part
from scaffolds.grid.results import current_rows
from scaffolds.grid.runner import GridSetupError, run_grid

__all__ = [
    "ComboSummary",
    "GridConfig",
    "GridSetupError",
    "MeanSem",
    "RunSpec",
    "current_rows",
    "mean_sem",
    "pass_at_k",
    "plan_runs",
    "run_grid",
    "safe_part",
    "summarize",
]
