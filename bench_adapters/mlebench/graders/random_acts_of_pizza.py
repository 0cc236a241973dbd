"""random-acts-of-pizza: ROC-AUC of ``requester_received_pizza`` probabilities, matched on ``request_id``."""

from __future__ import annotations

import pandas as pd

from ._helpers import auroc_score

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sampleSubmission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    return auroc_score(submission, answers, id_col="request_id", target="requester_received_pizza")
