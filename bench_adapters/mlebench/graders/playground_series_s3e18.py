"""playground-series-s3e18: macro ROC-AUC over the ``EC1`` and ``EC2`` columns.

Unlike the auroc helper there is no numeric or range check: AUC depends only on ranks.
"""

from __future__ import annotations

import pandas as pd
from sklearn.metrics import roc_auc_score

from . import InvalidSubmissionError
from ._helpers import ids_differ, require

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
TARGETS = ["EC1", "EC2"]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if "id" not in submission.columns or "id" not in answers.columns:
        raise InvalidSubmissionError(
            "Both submission and answers DataFrames must contain an 'id' column."
        )
    if not set(TARGETS) <= set(submission.columns):
        raise InvalidSubmissionError("Submission DataFrame must contain 'EC1' and 'EC2' columns.")
    require(
        set(TARGETS) <= set(answers.columns),
        "Answers DataFrame must contain 'EC1' and 'EC2' columns.",
    )
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission must be the same length as the answers.")

    answers = answers.sort_values("id")
    submission = submission.sort_values("id")
    if ids_differ(submission["id"], answers["id"]):
        raise InvalidSubmissionError("Submission and answers have mismatched 'id' columns")
    return roc_auc_score(
        y_true=answers[TARGETS].to_numpy(),
        y_score=submission[TARGETS].to_numpy(),
        average="macro",
    )
