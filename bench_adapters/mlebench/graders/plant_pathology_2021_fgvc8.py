"""plant-pathology-2021-fgvc8: micro-F1 of the predicted disease sets (``labels``,
space-separated names such as ``scab frog_eye_leaf_spot``) against the true ones, rows matched
on ``image``.

Upstream's quirks, kept: the classes are the names found in the answers (taken before blanks
are filled, so a blank answer fails), so a predicted name no answer uses is ignored rather than
counted as a false positive; a name repeated in one cell counts once; a blank cell is an empty
set; a ``labels`` column pandas reads as numbers cannot be split and fails.
"""

from __future__ import annotations

import pandas as pd

from . import InvalidSubmissionError
from ._helpers import require
from ._labelsets import aligned_rows, label_sets, micro_f1

ANSWERS = "answers.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require(
        "image" in answers.columns and "labels" in answers.columns,
        "Answers DataFrame must have 'image' and 'labels' columns",
    )
    if "image" not in submission.columns:
        raise InvalidSubmissionError("Submission DataFrame must have an 'image' column.")
    if "labels" not in submission.columns:
        raise InvalidSubmissionError("Submission DataFrame must have a 'labels' column.")
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            "Submission and answers DataFrames must have the same number of rows."
        )
    in_submission, in_answers = aligned_rows(
        submission["image"],
        answers["image"],
        "Submission and answers DataFrames must have matching 'image' columns.",
    )
    truth = list(label_sets(answers["labels"], in_answers))
    require(all(truth), "Every answer must have at least one label")  # else NaN in classes
    classes = {label for row in truth for label in row}
    return micro_f1(truth, label_sets(submission["labels"], in_submission), classes)
