"""hotel-id-2021-fgvc8: MAP@5 of the ranked hotel ids (``hotel_id``, up to 5, space-separated)
against each image's hotel, rows matched on ``image``.

Upstream's quirks, kept: cells are compared as text, so a ``hotel_id`` column pandas reads as
floats (one id a row with a blank somewhere) gives ``"123.0"``, which never equals the answer
``"123"``, and scores 0; a blank cell is the word ``"nan"``; ids are split on single spaces, so a
double space puts an empty guess in the ranking. The id sets must be equal before the lengths
are compared.
"""

from __future__ import annotations

import pandas as pd

from . import InvalidSubmissionError
from ._helpers import require
from ._ranking import as_text, mean_average_precision_at_k, ranked

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if "image" not in submission.columns:
        raise InvalidSubmissionError("Submission is missing `image` column")
    if "hotel_id" not in submission.columns:
        raise InvalidSubmissionError("Submission is missing `hotel_id` column")
    require("image" in answers.columns, "Answers is missing `image` column")
    require("hotel_id" in answers.columns, "Answers is missing `hotel_id` column")
    if set(submission["image"].tolist()) != set(answers["image"].tolist()):
        raise InvalidSubmissionError("Submission and answers have different ids")
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission and answers have different lengths")
    submission = submission.sort_values("image")
    answers = answers.sort_values("image")
    actual = [set(cell) for cell in ranked(as_text(answers["hotel_id"]))]
    return mean_average_precision_at_k(actual, ranked(as_text(submission["hotel_id"])), k=5)
