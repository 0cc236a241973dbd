"""spaceship-titanic: accuracy of ``Transported``, rows matched on ``PassengerId``."""

from __future__ import annotations

import pandas as pd
from sklearn.metrics import accuracy_score

from ._helpers import accuracy_inputs

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    y_true, y_pred = accuracy_inputs(
        submission, answers, target="Transported", id_col="PassengerId"
    )
    return accuracy_score(y_true=y_true, y_pred=y_pred)
