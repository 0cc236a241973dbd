"""new-york-city-taxi-fare-prediction: RMSE of ``fare_amount``.

Rows are aligned only by sorting both frames on ``key``; upstream checks neither the length nor
the keys, so a wrong row count fails inside scikit-learn and wrong keys are scored misaligned.
"""

from __future__ import annotations

import pandas as pd
from sklearn.metrics import root_mean_squared_error

from . import InvalidSubmissionError
from ._helpers import require

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require("fare_amount" in answers.columns, "Answers should have a fare_amount column")
    require("key" in answers.columns, "Answers should have a key column")
    if "fare_amount" not in submission.columns:
        raise InvalidSubmissionError("Submission should have a fare_amount column")
    if "key" not in submission.columns:
        raise InvalidSubmissionError("Submission should have a key column")
    y_true = answers.sort_values("key")["fare_amount"]
    y_pred = submission.sort_values("key")["fare_amount"]
    return root_mean_squared_error(y_true, y_pred)
