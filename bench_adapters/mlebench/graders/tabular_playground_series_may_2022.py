"""tabular-playground-series-may-2022: ROC-AUC of ``target`` probabilities, matched on ``id``."""

from __future__ import annotations

import pandas as pd

from ._helpers import auroc_score

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
GOLD_SUBMISSION = "gold_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    return auroc_score(submission, answers, id_col="id", target="target")
