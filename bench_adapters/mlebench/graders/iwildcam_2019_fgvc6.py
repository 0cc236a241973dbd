"""iwildcam-2019-fgvc6: macro-F1 of the predicted animal class (``Category``, an integer, 0 for
an empty frame) against the true ones, rows matched on ``Id``.

Upstream's quirks, kept: the answers file is the gold submission (``Id,Category``; the full test
rows with their labels are in ``private/test.csv``, which grading does not read), and the
sample submission carries an unnamed index column first (upstream writes it with
``index=True``). The average runs over the union of true and predicted classes, so every class
predicted but never true adds a zero; each cell goes through Python's ``int``.
"""

from __future__ import annotations

import pandas as pd

from . import InvalidSubmissionError
from ._helpers import require
from ._labelsets import aligned_rows, int_labels, macro_f1

ANSWERS = "answers.csv"
GOLD_SUBMISSION = "answers.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require("Id" in answers.columns, "Answers must have 'Id' column")
    require("Category" in answers.columns, "Answers must have 'Category' column")
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            f"Submission length {len(submission)} != answers length {len(answers)}"
        )
    if "Id" not in submission.columns:
        raise InvalidSubmissionError("Submission must have 'Id' column")
    if "Category" not in submission.columns:
        raise InvalidSubmissionError("Submission must have 'Category' column")
    in_submission, in_answers = aligned_rows(
        submission["Id"], answers["Id"], "Submission and answers have mismatched 'Id' columns"
    )
    truth = int_labels(answers["Category"], in_answers)
    return macro_f1(truth, int_labels(submission["Category"], in_submission))
