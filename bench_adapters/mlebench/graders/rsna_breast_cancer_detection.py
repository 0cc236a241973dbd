"""rsna-breast-cancer-detection: probabilistic F1 of ``cancer`` probabilities, one row per
breast (``prediction_id`` = ``<patient_id>_<laterality>``), rows matched on ``prediction_id``.

pF1 uses the predictions themselves as soft counts: clipped to [0, 1], their sum over the
cancers is the true-positive count and over the others the false-positive count. Upstream's
arithmetic, kept: a blank prediction makes the sums NaN and the score 0 (a NaN precision is
not above 0); all-zero predictions make the precision 0/0, NaN under numpy, and the score 0;
answers without a cancer divide a Python 0 by 0 and fail. The sums run row by row in id
order, as upstream's loop.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import InvalidSubmissionError
from ._helpers import ids_differ, require

ANSWERS = "answers.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
BETA = 1


def soft_counts(predictions: np.ndarray) -> np.ndarray:
    """Upstream's ``min(max(p, 0), 1)`` per row, as floats (NaN stays NaN); text cannot be
    compared with 0 and fails."""
    if predictions.dtype == bool or np.issubdtype(predictions.dtype, np.number):
        return np.clip(predictions.astype(np.float64), 0, 1)
    return np.array([min(max(p, 0), 1) for p in predictions], dtype=np.float64)


def pfbeta(labels: np.ndarray, predictions: np.ndarray, beta: float) -> float:
    positive = labels.astype(bool)
    clipped = soft_counts(predictions)
    # Upstream's sums start as the Python int 0 and stay ints while every term is a clipped
    # negative (the int 0 that ``max`` returns): dividing those by 0 raises, numpy's gives NaN.
    if not positive.any() or bool((predictions < 0).all()):
        raise ZeroDivisionError("division by zero")
    ctp = np.add.accumulate(clipped[positive])[-1]
    cfp = np.add.accumulate(clipped[~positive])[-1] if (~positive).any() else 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = ctp / (ctp + cfp)
        recall = ctp / positive.sum()
    if precision > 0 and recall > 0:
        return (1 + beta**2) * (precision * recall) / (beta**2 * precision + recall)
    return 0


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require("prediction_id" in answers.columns, "prediction_id not in answers")
    require("cancer" in answers.columns, "cancer not in answers")
    if "prediction_id" not in submission.columns:
        raise InvalidSubmissionError("prediction_id not in submission")
    if "cancer" not in submission.columns:
        raise InvalidSubmissionError("cancer not in submission")
    if len(submission) != len(answers):
        raise InvalidSubmissionError("submission and answers have different lengths")
    submission = submission.sort_values(by="prediction_id")
    answers = answers.sort_values(by="prediction_id")
    if ids_differ(submission["prediction_id"], answers["prediction_id"]):
        raise InvalidSubmissionError("prediction_id not aligned")
    return pfbeta(answers["cancer"].to_numpy(), submission["cancer"].to_numpy(), BETA)
