"""multi-modal-gesture-recognition: Levenshtein distance over gesture sequences, normalized.

Each row is one session: ``Id`` (the 4-digit sample number) and ``Sequence``, the recognised
gesture labels (1-20) in temporal order, space-separated. The score is the sum of the edit
distances between predicted and true sequences divided by the number of true gestures; it is
an error rate (lower is better) and can exceed 1. An empty prediction is an empty sequence.

Upstream's quirk, kept: both ``Sequence`` columns go through ``astype(str)`` before being read
as integers, so under upstream's pandas 2 a blank cell is the text ``"nan"``, which is not an
integer: a blank prediction makes the submission invalid rather than an empty sequence (write
a cell of spaces, ``" "``, for that). A column pandas read as floats fails the same way
(``"5.0"``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import InvalidSubmissionError
from ._helpers import require
from ._text import column_text

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/randomPredictions.csv"


def edit_distance(a: list[int], b: list[int]) -> int:
    """Levenshtein distance between two sequences (insertions, deletions, substitutions)."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, start=1):
        current = [i]
        for j, y in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def _sequences(values: pd.Series) -> list[list[int]]:
    return [[int(v) for v in text.split()] for text in column_text(values, "astype_str")]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> np.float64:
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission and answers must have the same length")
    if "Id" not in submission.columns:
        raise InvalidSubmissionError("Submission must have an 'Id' column")
    if "Sequence" not in submission.columns:
        raise InvalidSubmissionError("Submission must have a 'Sequence' column")
    require("Id" in answers.columns, "Answers must have 'Id' column")
    require("Sequence" in answers.columns, "Answers must have 'Sequence' column")
    submission = submission.sort_values("Id")
    answers = answers.sort_values("Id")
    if (submission["Id"].values != answers["Id"].values).any():
        raise InvalidSubmissionError("Submission and answers must have the same ids")
    truth = _sequences(answers["Sequence"])
    try:
        predicted = _sequences(submission["Sequence"])
    except ValueError as e:
        raise InvalidSubmissionError(
            "Submission sequences must be integers separated by spaces. "
            f"Failed to convert Sequence to list of integers: {e}"
        ) from None
    total = sum(len(t) for t in truth)
    require(total > 0, "Answers hold no gestures")
    distances = sum(edit_distance(t, p) for t, p in zip(truth, predicted, strict=True))
    return np.float64(distances / total)  # upstream's type, for its rounding
