"""The demo tasks: ids, titles and grader specs (the same ``GraderSpec`` shape as MLE-bench)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas as pd

from bench_adapters.task import GraderSpecLike

DEMO_IDS = ("tabular-binary", "tabular-regression", "digits-image")


@dataclass(frozen=True)
class DemoInfo:
    title: str
    metric: str
    """Name of the grade function in ``bench_adapters.demo.metrics``."""
    is_lower_better: bool


INFO = {
    "tabular-binary": DemoInfo("Tumour diagnosis (breast cancer, tabular)", "grade_roc_auc", False),
    "tabular-regression": DemoInfo("Disease progression (diabetes, tabular)", "grade_rmse", True),
    "digits-image": DemoInfo("Handwritten digits (8x8 PNG images)", "grade_accuracy", False),
}


def grade_fn(task_id: str) -> Callable[[pd.DataFrame, Any], float]:
    from bench_adapters.demo import metrics  # scikit-learn: imported only to grade

    fn: Callable[[pd.DataFrame, Any], float] = getattr(metrics, INFO[task_id].metric)
    return fn


def demo_grader_spec(task_id: str) -> GraderSpecLike:
    """The grader spec of one demo task; answers in ``private/test.csv``."""
    from bench_adapters.mlebench.graders import GraderSpec

    spec: GraderSpecLike = GraderSpec(
        competition_id=task_id,
        answers="test.csv",
        sample_submission="public/sample_submission.csv",
        grade=grade_fn(task_id),
    )
    return spec
