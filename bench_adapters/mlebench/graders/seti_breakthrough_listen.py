"""seti-breakthrough-listen: ROC-AUC of the ``target`` probability, matched on ``id``.

Upstream's AUC preparation: scores must be numeric and within [0, 1] (a NaN passes that check
and then fails in scikit-learn); ids must match the answers' one for one.
"""

from __future__ import annotations

import pandas as pd

from ._helpers import auroc_score

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    return auroc_score(submission, answers, id_col="id", target="target")
