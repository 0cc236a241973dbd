"""tabular-playground-series-dec-2021: accuracy of ``Cover_Type``, rows matched on ``Id``."""

from __future__ import annotations

import pandas as pd
from sklearn.metrics import accuracy_score

from ._helpers import accuracy_inputs

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    y_true, y_pred = accuracy_inputs(submission, answers, target="Cover_Type", id_col="Id")
    return accuracy_score(y_true=y_true, y_pred=y_pred)
