"""whale-categorization-playground: MAP@5 of the ranked whale ids (``Id``, up to 5,
space-separated) against each image's whale, rows matched on ``Image``.

Upstream's quirks, kept: a whale seen only in the test split is ``new_whale`` in the answers
(upstream's preparation maps it so), which makes ``new_whale`` a label worth ranking; cells are
compared as text split on single spaces, so a blank cell is the word ``"nan"`` and a double
space puts an empty guess in the ranking; the submission must have exactly the two columns.
"""

from __future__ import annotations

import pandas as pd

from . import InvalidSubmissionError
from ._helpers import require
from ._ranking import as_text, mean_average_precision_at_k, ranked

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
COLUMNS = {"Image", "Id"}


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require(
        set(answers.columns) == COLUMNS, "Answers DataFrame must have 'Image' and 'Id' columns."
    )
    if set(submission.columns) != COLUMNS:
        raise InvalidSubmissionError("Submission DataFrame must have 'Image' and 'Id' columns.")
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            "Submission and answers DataFrames must have the same number of rows."
        )
    if set(submission["Image"].tolist()) != set(answers["Image"].tolist()):
        raise InvalidSubmissionError("Submission and answers have different Image IDs")
    submission = submission.sort_values("Image")
    answers = answers.sort_values("Image")
    actual = [set(cell) for cell in ranked(as_text(answers["Id"]))]
    return mean_average_precision_at_k(actual, ranked(as_text(submission["Id"])), k=5)
