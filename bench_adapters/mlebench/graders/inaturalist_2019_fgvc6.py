"""inaturalist-2019-fgvc6: top-1 classification error (1 - accuracy, lower is better) of the
species in ``predicted``, rows matched on ``id``.

Kaggle's format allows several space-separated guesses; as upstream, only the first token of a
text cell counts (``"12 7 3"`` is 12), an integer column is taken as is, and anything else
fails: a float column (``12.0``, or any blank cell in an integer column) has no ``split``, and
a token that is not an integer cannot be converted. The sample submission sits at
``public/kaggle_sample_submission.csv`` and guesses one species for every image.
"""

from __future__ import annotations

import pandas as pd
from sklearn.metrics import accuracy_score

from . import InvalidSubmissionError
from ._helpers import ids_differ, require

ANSWERS = "answers.csv"
SAMPLE_SUBMISSION = "public/kaggle_sample_submission.csv"


def first_guess(cell: object) -> int:
    """Upstream's ``int(y) if isinstance(y, int) else int(y.split()[0])``: a bool counts as
    an int; a float or a missing value raises ``AttributeError``."""
    if isinstance(cell, int):
        return int(cell)
    return int(cell.split()[0])  # type: ignore[attr-defined]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            f"Submission length {len(submission)} != answers length {len(answers)}"
        )
    if "id" not in submission.columns or "predicted" not in submission.columns:
        raise InvalidSubmissionError("Submission must have 'id' and 'predicted' columns")
    require("id" in answers.columns, "Answers must have 'id' column")
    require("predicted" in answers.columns, "Answers must have 'predicted' column")
    submission = submission.sort_values("id")
    answers = answers.sort_values("id")
    if ids_differ(submission["id"], answers["id"]):
        raise InvalidSubmissionError("Submission and answers have mismatched 'id' columns")
    y_true = [int(y) for y in answers["predicted"]]
    y_pred = [first_guess(y) for y in submission["predicted"]]
    return 1 - accuracy_score(y_true=y_true, y_pred=y_pred)
