"""dogs-vs-cats-redux-kernels-edition: binary log loss of ``label`` (the probability of a dog).

Ids are the integers 1..N; every label must lie in [0, 1].
"""

from __future__ import annotations

import pandas as pd
from sklearn.metrics import log_loss

from . import InvalidSubmissionError
from ._helpers import require

ANSWERS = "answers.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require("id" in answers.columns, "Answers is missing `id` column")
    require("label" in answers.columns, "Answers is missing `label` column")
    if "id" not in submission.columns:
        raise InvalidSubmissionError("Submission is missing `id` column")
    if "label" not in submission.columns:
        raise InvalidSubmissionError("Submission is missing `label` column")
    if set(submission["id"]) != set(answers["id"]):
        raise InvalidSubmissionError("Submission and answers have different id's")
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission and answers have different lengths")
    labels = submission["label"]
    if not ((labels >= 0) & (labels <= 1)).all():
        raise InvalidSubmissionError(
            "All values in submission `label` column must be between 0 and 1."
        )
    y_true = answers.sort_values("id")["label"]
    y_pred = submission.sort_values("id")["label"]
    return log_loss(y_true, y_pred)  # positional: sklearn 1.9 renamed y_pred
