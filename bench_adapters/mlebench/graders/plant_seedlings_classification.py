"""plant-seedlings-classification: micro-averaged F1 of ``species`` (equal to accuracy for one
label a row), rows matched on ``file``.

Upstream's own checks: both columns, the answers' length, the same files after sorting. The
labels go to scikit-learn as lists: an unknown species or a blank cell among names is just
wrong, and a column with no names at all (every cell blank, read as floats) fails there.
"""

from __future__ import annotations

import pandas as pd
from sklearn.metrics import f1_score

from . import InvalidSubmissionError
from ._helpers import ids_differ, require

ANSWERS = "answers.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require("file" in answers.columns, "Answers must have 'file' column")
    require("species" in answers.columns, "Answers must have 'species' column")
    if "file" not in submission.columns:
        raise InvalidSubmissionError("Submission must have 'file' column")
    if "species" not in submission.columns:
        raise InvalidSubmissionError("Submission must have 'species' column")
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            f"Submission length {len(submission)} != answers length {len(answers)}"
        )
    submission = submission.sort_values("file")
    answers = answers.sort_values("file")
    if ids_differ(submission["file"], answers["file"]):
        raise InvalidSubmissionError("Submission and answers have mismatched 'file' columns")
    y_true = answers["species"].tolist()
    y_pred = submission["species"].tolist()
    return f1_score(y_true=y_true, y_pred=y_pred, average="micro")
