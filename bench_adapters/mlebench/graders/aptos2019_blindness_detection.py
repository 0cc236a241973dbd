"""aptos2019-blindness-detection: quadratic-weighted Cohen kappa of ``diagnosis``.

The sets of ``id_code`` must match; the length is not checked separately, so duplicated ids
fail inside scikit-learn.
"""

from __future__ import annotations

import pandas as pd
from sklearn.metrics import cohen_kappa_score

from . import InvalidSubmissionError
from ._helpers import require

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    target = "diagnosis"
    if target not in submission.columns:
        raise InvalidSubmissionError(f"Submission must contain the target column '{target}'")
    require(target in answers.columns, f"Answers must contain the target column '{target}'")
    if submission.empty:
        raise InvalidSubmissionError("Submission DataFrame should not be empty")
    require(not answers.empty, "Answers DataFrame should not be empty")
    if set(submission["id_code"]) != set(answers["id_code"]):
        raise InvalidSubmissionError("Submission must have the same id_codes as answers")
    y_pred = submission.sort_values(by="id_code")[target].to_numpy()
    y_true = answers.sort_values(by="id_code")[target].to_numpy()
    return cohen_kappa_score(y_pred, y_true, weights="quadratic")
