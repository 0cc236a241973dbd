"""new-york-city-taxi-fare-prediction: RMSE of ``fare_amount``.

Rows are aligned only by sorting both frames on ``key``; upstream checks neither the length nor
the keys, so a wrong row count fails inside scikit-learn and wrong keys are scored misaligned.
Duplicated keys are scored too, in the order upstream's unstable sort leaves them
(``_sort.upstream_sorted``).
"""

from __future__ import annotations

import pandas as pd
from sklearn.metrics import root_mean_squared_error

from . import InvalidSubmissionError
from ._helpers import require
from ._sort import upstream_sorted

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require("fare_amount" in answers.columns, "Answers should have a fare_amount column")
    require("key" in answers.columns, "Answers should have a key column")
    if "fare_amount" not in submission.columns:
        raise InvalidSubmissionError("Submission should have a fare_amount column")
    if "key" not in submission.columns:
        raise InvalidSubmissionError("Submission should have a key column")
    y_true = upstream_sorted(answers, "key")["fare_amount"]
    y_pred = upstream_sorted(submission, "key")["fare_amount"]
    return root_mean_squared_error(y_true, y_pred)
