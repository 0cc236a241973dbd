"""hubmap-kidney-segmentation: mean Dice over the test slides' glomerulus masks.

Rows are ``id, predicted``: a run-length encoded mask of the whole slide (``rlecodec``,
pixels numbered down each column, then across), blank for none; its height and width come
from the answers (``height_pixels``, ``width_pixels``). Per slide ``2 |X & Y| / (|X| + |Y|)``,
1 when both are empty; the score is their mean.

The slides have 0.2 to 2.5 gigapixels: upstream decodes every predicted and true mask at once
(gigabytes each), while this grader counts the overlap from the runs and never builds a mask
(tens of megabytes for Kaggle's sizes). Upstream's checks, kept: the same number of rows and
the same set of ids (then sorted and paired); a blank cell is an empty mask, and any other
cell that is not text (a column read as numbers) fails.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rlecodec import CONVENTIONS, dice

from . import InvalidSubmissionError
from ._helpers import require
from ._masks import answer_runs, blank_as_empty, intersection, submission_runs, whole_int
from ._sort import upstream_sorted

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
GOLD_SUBMISSION = "gold_submission.csv"

BOTH_EMPTY = CONVENTIONS["hubmap-kidney-segmentation"].both_empty


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if "id" not in submission.columns:
        raise InvalidSubmissionError("Submission is missing the 'id' column")
    if "predicted" not in submission.columns:
        raise InvalidSubmissionError("Submission is missing the 'predicted' column")
    for column in ("id", "encoding", "width_pixels", "height_pixels"):
        require(column in answers.columns, f"Answers is missing the '{column}' column")
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            f"Submission has {len(submission)} rows while answers has {len(answers)} rows"
        )
    if set(submission["id"]) != set(answers["id"]):
        raise InvalidSubmissionError("Submission and answers have different id values")
    submission = upstream_sorted(submission, "id")
    answers = upstream_sorted(answers, "id")
    predicted = blank_as_empty(submission["predicted"])
    sizes = [
        whole_int(h) * whole_int(w)
        for h, w in zip(
            answers["height_pixels"].tolist(), answers["width_pixels"].tolist(), strict=True
        )
    ]
    guesses = [submission_runs(cell, size) for cell, size in zip(predicted, sizes, strict=True)]
    scores = []
    for guess, cell, size in zip(guesses, answers["encoding"], sizes, strict=True):
        truth = answer_runs(cell, size)
        scores.append(dice(intersection(guess, truth), guess.area, truth.area, BOTH_EMPTY))
    return float(np.mean(scores))
