"""ranzcr-clip-catheter-line-classification: mean of per-class ROC-AUCs over 9 classes.

The answers keep all 11 Kaggle label columns, but upstream grades only these 9 (its issue #30:
the sample submission lacks the other two). Each class goes through the auroc checks on its
own, so every class column must hold probabilities in [0, 1].
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import InvalidSubmissionError
from ._helpers import auroc_score, require

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
CLASSES = [
    "ETT - Abnormal",
    "ETT - Borderline",
    "ETT - Normal",
    "NGT - Abnormal",
    "NGT - Borderline",
    "NGT - Incompletely Imaged",
    "NGT - Normal",
    "CVC - Abnormal",
    "CVC - Borderline",
]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    for name in CLASSES:
        require(name in answers.columns, f"Missing class {name} in answers.")
        if name not in submission.columns:
            raise InvalidSubmissionError(f"Class {name} is not in the submission.")
    require(
        len(submission) == len(answers),
        f"Expected {len(answers)} rows in submission, got {len(submission)}.",
    )
    scores = [auroc_score(submission, answers, "StudyInstanceUID", name) for name in CLASSES]
    return np.average(scores)
