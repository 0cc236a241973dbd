"""siim-isic-melanoma-classification: ROC-AUC of ``target`` probabilities, matched on ``image_name``."""

from __future__ import annotations

import pandas as pd

from ._helpers import auroc_score

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    return auroc_score(submission, answers, id_col="image_name", target="target")
