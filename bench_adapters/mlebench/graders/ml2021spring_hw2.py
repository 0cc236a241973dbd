"""ml2021spring-hw2: accuracy of the phoneme ``ClassId`` (0-38), rows matched on ``Id``.

Upstream's accuracy preparation (``_helpers.accuracy_inputs``) and scikit-learn 1.5.1's checks
(``_accuracy``): labels are compared unconverted, so ``3.0`` matches ``3``, an unknown class is
just wrong, and one text cell makes every label of the column wrong rather than the file
invalid.
"""

from __future__ import annotations

import pandas as pd

from ._accuracy import accuracy_score
from ._helpers import accuracy_inputs

ANSWERS = "answers.csv"
SAMPLE_SUBMISSION = "public/sampleSubmission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    y_true, y_pred = accuracy_inputs(submission, answers, target="ClassId", id_col="Id")
    return accuracy_score(y_true, y_pred)
