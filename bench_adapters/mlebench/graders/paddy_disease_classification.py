"""paddy-disease-classification: accuracy of the disease ``label``, rows matched on ``image_id``.

Upstream's own checks, not the shared accuracy preparation: both columns present (extra
columns are fine), the answers' length, the same ids after sorting. A missing label counts as
the empty string, so it is simply wrong (the sample submission, all blank, scores 0), and
labels are compared as given under scikit-learn 1.5.1's checks (``_accuracy``).
"""

from __future__ import annotations

import pandas as pd

from . import InvalidSubmissionError
from ._accuracy import accuracy_score
from ._helpers import ids_differ, require

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
COLUMNS = {"image_id", "label"}


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require(
        set(answers.columns) >= COLUMNS,
        f"Expected columns {COLUMNS}, but got {set(answers.columns)}",
    )
    require(not answers.isnull().values.any(), "Answers contain NaN values")
    if not set(submission.columns) >= COLUMNS:
        raise InvalidSubmissionError(
            f"Expected columns {COLUMNS}, but got {set(submission.columns)}"
        )
    if len(submission) != len(answers):
        raise InvalidSubmissionError(f"Expected {len(answers)} rows, but got {len(submission)}")
    submission = submission.sort_values(by="image_id").reset_index(drop=True)
    answers = answers.sort_values(by="image_id").reset_index(drop=True)
    if ids_differ(submission["image_id"], answers["image_id"]):
        raise InvalidSubmissionError("Invalid image IDs in the submission!")
    labels = submission["label"].astype(object)
    y_pred = labels.where(labels.notna(), "").tolist()  # upstream's fillna("")
    return accuracy_score(answers["label"].to_numpy(), y_pred)
