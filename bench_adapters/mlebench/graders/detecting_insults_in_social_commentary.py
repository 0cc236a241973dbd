"""detecting-insults-in-social-commentary: ROC-AUC of ``Insult`` probabilities.

Rows are matched on the exact text of ``Comment``, which upstream uses as the id.
"""

from __future__ import annotations

import pandas as pd

from ._helpers import auroc_score

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission_null.csv"
GOLD_SUBMISSION = "gold_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    return auroc_score(submission, answers, id_col="Comment", target="Insult")
