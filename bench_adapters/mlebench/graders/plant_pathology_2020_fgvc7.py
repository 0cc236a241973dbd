"""plant-pathology-2020-fgvc7: mean of the 4 per-class ROC-AUCs; the column set must be exact."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score

from . import InvalidSubmissionError
from ._helpers import require

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
CLASSES = ["healthy", "multiple_diseases", "rust", "scab"]
COLUMNS = ["image_id", *CLASSES]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require(
        set(answers.columns) == set(COLUMNS),
        f"Expected `answers` to have columns {COLUMNS} but got {answers.columns}",
    )
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            f"Expected submission to have {len(answers)} rows but got {len(submission)}"
        )
    if set(submission.columns) != set(COLUMNS):
        raise InvalidSubmissionError(
            f"Expected submission to have columns {COLUMNS} but got {submission.columns}"
        )
    submission = submission.sort_values(by="image_id").reset_index(drop=True)
    answers = answers.sort_values(by="image_id").reset_index(drop=True)
    if not all(submission["image_id"] == answers["image_id"]):
        raise InvalidSubmissionError(
            "Submission and answers DataFrames must have matching 'image_id' columns."
        )
    scores = [roc_auc_score(y_true=answers[c], y_score=submission[c]) for c in CLASSES]
    return np.mean(scores)
