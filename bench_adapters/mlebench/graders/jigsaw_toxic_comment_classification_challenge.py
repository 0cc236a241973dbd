"""jigsaw-toxic-comment-classification-challenge: macro ROC-AUC over the 6 toxicity classes.

Answer rows labelled -1 in every class are not scored. After ``id`` becomes the index, every
remaining submission column, in file order, is a score column: an extra column makes the
metric fail and a swapped column order is scored misaligned, as upstream.
"""

from __future__ import annotations

import pandas as pd
from sklearn.metrics import roc_auc_score

from . import InvalidSubmissionError
from ._helpers import require

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
CLASSES = ["toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate"]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if "id" not in submission.columns:
        raise InvalidSubmissionError("Submission is missing the column: id")
    missing = set(CLASSES) - set(submission.columns)
    if missing:
        raise InvalidSubmissionError(f"Submission is missing the following columns: {missing}")
    require("id" in answers.columns, "Answers is missing `id` column")
    missing = set(CLASSES) - set(answers.columns)
    require(not missing, f"Answers is missing the following columns: {missing}")
    require(len(submission) == len(answers), "Submission and answers have different lengths")

    submission = submission.set_index("id").sort_index()
    answers = answers.set_index("id").sort_index()
    # An unscored row is marked -1 in every class, so its sum is negative. The mask is indexed
    # by the answers' ids: a submission with other ids makes pandas refuse to align it.
    scored = answers[CLASSES].sum(axis=1) >= 0
    return roc_auc_score(
        y_true=answers[scored].to_numpy(),
        y_score=submission[scored].to_numpy(),
        average="macro",
    )
