"""Grade functions of the demo tasks, with upstream MLE-bench's checks and messages.

Each checks columns and length, aligns rows by sorting on the id column, requires identical ids,
and raises ``InvalidSubmissionError`` for any submission-side fault (mirroring upstream's
``prepare_for_auroc_metric`` / ``prepare_for_accuracy_metric``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score, roc_auc_score, root_mean_squared_error

from bench_adapters.mlebench.graders import InvalidSubmissionError


def _aligned(
    submission: pd.DataFrame, answers: pd.DataFrame, id_col: str, target: str
) -> tuple[np.ndarray, np.ndarray]:
    """(y_true, y_pred) sorted by id, after upstream's column, length and id checks."""
    assert id_col in answers.columns and target in answers.columns, "answers lack id/target"
    if id_col not in submission.columns:
        raise InvalidSubmissionError(f"Submission should have an `{id_col}` column")
    if target not in submission.columns:
        raise InvalidSubmissionError(f"Submission should have a `{target}` column")
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission and answers should have the same number of rows")
    submission = submission.sort_values(id_col)
    answers = answers.sort_values(id_col)
    if (submission[id_col].values != answers[id_col].values).any():
        raise InvalidSubmissionError(
            f"Submission and answers should have the same `{id_col}` values"
        )
    return answers[target].to_numpy(), submission[target].to_numpy()


def _numeric(values: np.ndarray, target: str) -> np.ndarray:
    try:
        return pd.to_numeric(pd.Series(values)).to_numpy(dtype="float64")
    except (ValueError, TypeError) as e:
        raise InvalidSubmissionError(f"Expected `{target}` column to be numeric") from e


def grade_roc_auc(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """ROC-AUC of ``target`` probabilities in [0, 1] (higher is better)."""
    y_true, y_pred = _aligned(submission, answers, "id", "target")
    y_score = _numeric(y_pred, "target")
    if np.nanmin(y_score, initial=0.0) < 0 or np.nanmax(y_score, initial=1.0) > 1:
        raise InvalidSubmissionError(
            "Submission `target` column should contain probabilities, and therefore contain "
            "values between 0 and 1 inclusive"
        )
    return float(roc_auc_score(y_true, y_score))


def grade_rmse(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Root mean squared error of ``target`` (lower is better)."""
    y_true, y_pred = _aligned(submission, answers, "id", "target")
    return float(root_mean_squared_error(y_true, _numeric(y_pred, "target")))


def grade_accuracy(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Share of ``label`` values equal to the true digit (higher is better)."""
    y_true, y_pred = _aligned(submission, answers, "id", "label")
    return float(accuracy_score(y_true, y_pred))
