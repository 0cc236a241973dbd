"""learning-agency-lab-automated-essay-scoring-2: quadratic-weighted Cohen kappa of ``score``.

Both frames are sorted on ``essay_id`` and compared id by id. Upstream's quirks, kept: the
length is not checked on its own, so a submission with rows missing or added fails comparing
ids of unequal length (an error, invalid); scores are labels, not numbers: a fractional score
is a label of its own and the quadratic weights follow the labels' sorted positions, as
scikit-learn's ``cohen_kappa_score`` has it.
"""

from __future__ import annotations

import pandas as pd
from sklearn.metrics import cohen_kappa_score

from . import InvalidSubmissionError
from ._helpers import require, sorted_by_id

ANSWERS = "answers.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
ID, TARGET = "essay_id", "score"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require(TARGET in answers.columns, f"Answers must contain the target column '{TARGET}'")
    require(ID in answers.columns, f"Answers must contain the id column '{ID}'")
    require(not answers.empty, "Answers DataFrame should not be empty")
    if TARGET not in submission.columns:
        raise InvalidSubmissionError(f"Submission must contain the target column '{TARGET}'")
    if ID not in submission.columns:
        raise InvalidSubmissionError(f"Submission must contain the id column '{ID}'")
    if submission.empty:
        raise InvalidSubmissionError("Submission DataFrame should not be empty")
    submission, answers = sorted_by_id(
        submission, answers, ID, "Submission must contain the same ids as the answers"
    )
    y_pred = submission[TARGET].to_numpy()
    y_true = answers[TARGET].to_numpy()
    return float(cohen_kappa_score(y_pred, y_true, weights="quadratic"))
