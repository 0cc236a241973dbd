"""rsna-2022-cervical-spine-fracture-detection: weighted binary log loss over each study's
``patient_overall`` and seven vertebrae (``C1`` ... ``C7``).

Rows are ``row_id = <StudyInstanceUID>_<prediction_type>`` with a ``fractured`` probability
(answers in the same long form: upstream melts Kaggle's wide table). Both frames are sorted
on ``row_id`` and compared id by id, then pivoted back to one row per study. Per study the
loss of each of the eight predictions (probabilities clipped to [1e-15, 1 - 1e-15]) is
weighted 7 (``patient_overall``) or 1 when negative and 14 or 2 when positive, summed and
divided by the weights' sum; the score is the mean over studies. Upstream's quirks, kept: a
missing probability fails the [0, 1] range check (an ``InvalidSubmissionError``); the length
is not checked on its own, so rows missing or added fail comparing ids of unequal length (an
error, invalid); the weights are float32 (every one exact).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import InvalidSubmissionError
from ._helpers import require, sorted_by_id

ANSWERS = "answers.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
ID, TARGET = "row_id", "fractured"
COLUMN_ORDER = ["patient_overall", "C1", "C2", "C3", "C4", "C5", "C6", "C7"]
NEGATIVE_WEIGHTS = np.array([7, 1, 1, 1, 1, 1, 1, 1], dtype=np.float32)
POSITIVE_WEIGHTS = np.array([14, 2, 2, 2, 2, 2, 2, 2], dtype=np.float32)


def wide(melted: pd.DataFrame) -> np.ndarray:
    """(studies, 8) ``fractured`` matrix, studies in ``StudyInstanceUID`` order."""
    parts = melted[ID].str.split("_", n=1, expand=True)
    table = pd.DataFrame(
        {"StudyInstanceUID": parts[0], "variable": parts[1], TARGET: melted[TARGET].to_numpy()}
    ).pivot(index="StudyInstanceUID", columns="variable", values=TARGET)
    return table.sort_index()[COLUMN_ORDER].to_numpy()


def weighted_log_loss(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    y_pred = np.clip(y_pred, 1e-15, 1 - 1e-15)
    loss = -(y_true * np.log(y_pred) + (1 - y_true) * np.log(1 - y_pred))
    weights = y_true * POSITIVE_WEIGHTS + (1 - y_true) * NEGATIVE_WEIGHTS
    return float(np.mean(np.sum(loss * weights, axis=1) / weights.sum(axis=1)))


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if ID not in submission.columns:
        raise InvalidSubmissionError(f"Submission is missing the `{ID}` column.")
    if TARGET not in submission.columns:
        raise InvalidSubmissionError(f"Submission is missing the `{TARGET}` column.")
    if not submission[TARGET].between(0, 1).all():
        raise InvalidSubmissionError(f"Submission `{TARGET}` values must be between 0 and 1.")
    require(ID in answers.columns, f"Answers are missing the `{ID}` column.")
    require(TARGET in answers.columns, f"Answers are missing the `{TARGET}` column.")
    require(bool(answers[TARGET].isin([0, 1]).all()), f"Answers `{TARGET}` values must be 0 or 1.")
    submission, answers = sorted_by_id(
        submission, answers, ID, "Submission should contain same ids as answers."
    )
    return weighted_log_loss(wide(answers), wide(submission))
