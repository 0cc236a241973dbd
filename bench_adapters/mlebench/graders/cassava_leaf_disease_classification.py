"""cassava-leaf-disease-classification: accuracy of ``label`` (0-4), rows matched on ``image_id``.

Upstream's accuracy preparation: labels are compared unconverted, so ``3.0`` matches ``3``, an
unknown label just counts as wrong and so does every label of a column holding text (as under
upstream's scikit-learn 1.5); a missing label fails in scikit-learn.
"""

from __future__ import annotations

import pandas as pd

from ._accuracy import accuracy_score
from ._helpers import accuracy_inputs

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    y_true, y_pred = accuracy_inputs(submission, answers, target="label", id_col="image_id")
    return accuracy_score(y_true, y_pred)
