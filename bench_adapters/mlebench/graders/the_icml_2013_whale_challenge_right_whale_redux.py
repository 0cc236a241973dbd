"""the-icml-2013-whale-challenge-right-whale-redux: ROC-AUC of ``probability`` probabilities, matched on ``clip``."""

from __future__ import annotations

import pandas as pd

from ._helpers import auroc_score

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sampleSubmission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    return auroc_score(submission, answers, id_col="clip", target="probability")
