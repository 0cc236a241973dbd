"""tabular-playground-series-dec-2021: accuracy of ``Cover_Type``, rows matched on ``Id``.

scikit-learn 1.5.1's checks (``_accuracy``): a text cell makes the column text, and upstream then
scores every row, the text labels as wrong, where newer versions refuse mixed labels.
"""

from __future__ import annotations

import pandas as pd

from ._accuracy import accuracy_score
from ._helpers import accuracy_inputs

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    y_true, y_pred = accuracy_inputs(submission, answers, target="Cover_Type", id_col="Id")
    return accuracy_score(y_true=y_true, y_pred=y_pred)
