"""ventilator-pressure-prediction: MAE of ``pressure`` over the inspiratory rows only.

Rows whose answer has ``u_out == 1`` (the expiratory phase) are not scored, so anything,
NaN included, may be submitted for them. Huge predictions (``1e308``) score as under upstream's
pinned scikit-learn: about ``1e308 / n`` for one, ``inf`` once the sum overflows (checked on
every scored row of a smoke fixture, and in the parity data's ``many_huge_values`` row).
"""

from __future__ import annotations

import pandas as pd
from sklearn.metrics import mean_absolute_error

from . import InvalidSubmissionError
from ._helpers import ids_differ, require

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require("id" in answers.columns, "Answers must contain the 'id' column")
    require("pressure" in answers.columns, "Answers must contain the 'pressure' column")
    if "id" not in submission.columns:
        raise InvalidSubmissionError("Submission must contain the 'id' column")
    if "pressure" not in submission.columns:
        raise InvalidSubmissionError("Submission must contain the 'pressure' column")
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission and answers must have the same length")

    submission = submission.sort_values(by="id")
    answers = answers.sort_values(by="id")
    if ids_differ(submission["id"], answers["id"]):
        raise InvalidSubmissionError("Submission and answers must be aligned in id order")

    # Both frames hold the same ids in the same order now, so one mask selects the scored rows.
    scored = answers[answers["u_out"] == 0]
    predicted = submission[submission["id"].isin(scored["id"])]
    return mean_absolute_error(scored["pressure"].to_numpy(), predicted["pressure"].to_numpy())
