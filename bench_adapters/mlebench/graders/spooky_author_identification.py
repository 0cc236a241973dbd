"""spooky-author-identification: multi-class log loss over 3 authors (one-hot answers).

The submission's shape must be exactly (rows of the answers, 4), with the id first: the
probability checks read every column after the first.
"""

from __future__ import annotations

import pandas as pd
from sklearn.metrics import log_loss

from . import InvalidSubmissionError
from ._helpers import check_probability_rows, one_hot_log_loss_inputs

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
CLASSES = ["EAP", "HPL", "MWS"]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if submission.shape != (len(answers), len(CLASSES) + 1):
        raise InvalidSubmissionError(
            f"Submission shape {submission.shape} does not match answers shape {answers.shape}."
        )
    check_probability_rows(
        submission.iloc[:, 1:], "Each row in submission should sum to one, as probabilities."
    )
    y_true, y_pred = one_hot_log_loss_inputs(submission, answers, id_col="id")
    return log_loss(y_true, y_pred)  # positional: sklearn 1.9 renamed y_pred
