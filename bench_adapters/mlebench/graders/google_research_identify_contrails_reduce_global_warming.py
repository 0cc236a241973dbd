"""google-research-identify-contrails-reduce-global-warming: global Dice over every test
record's contrail mask.

Rows are ``record_id, encoded_pixels``: a run-length encoded 256 x 256 mask (``rlecodec``,
pixels numbered down each column, then across), ``-`` for no contrail. Both frames are sorted
by ``record_id`` and compared position by position; the masks of all records count as one:
``2 |X & Y| / (|X| + |Y|)`` over every pixel of every record, NaN when no record has a
contrail in either.

Upstream's quirks, kept: only a cell that is exactly ``-`` means "empty" (a blank cell is
missing, not a string, and invalid; a cell of spaces is an empty mask); the answers' RLE is
decoded under upstream's ``InvalidSubmissionError`` handler and the submission's outside it
(names swapped), which changes no score, as both kinds of failure leave the submission
invalid; each mask takes its height and width from the answers; other submission columns
(the sample's ``height`` and ``width``) are ignored.
"""

from __future__ import annotations

import math

import pandas as pd

from rlecodec import CONVENTIONS, dice

from . import InvalidSubmissionError
from ._helpers import ids_differ, require
from ._masks import answer_runs, intersection, submission_runs
from ._sort import upstream_sorted

ANSWERS = "answers.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
CHECK_NOTES = {
    "missing-column": "upstream reads only record_id and encoded_pixels, so the sample "
    "without its width column is still valid",
}

ID = "record_id"
MASK = "encoded_pixels"
CONVENTION = CONVENTIONS["google-research-identify-contrails-reduce-global-warming"]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    expected = [ID, MASK, "height", "width"]
    require(set(answers.columns) == set(expected), f"Expected answers to have columns {expected}")
    if not {ID, MASK} <= set(submission.columns):
        raise InvalidSubmissionError(
            f"Expected submission to have columns {[ID, MASK]}, but got "
            f"{list(submission.columns)} instead!"
        )
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            f"Expected submission to have {len(answers)} rows, but got {len(submission)} instead!"
        )
    submission = upstream_sorted(submission, ID)
    answers = upstream_sorted(answers, ID)
    if ids_differ(submission[ID], answers[ID]):
        raise InvalidSubmissionError(
            "Expected submission to have the same record_id's as answers, but got a different "
            "set of record_id's!"
        )
    shapes = [(int(h), int(w)) for h, w in zip(answers["height"], answers["width"], strict=True)]
    require(len(set(shapes)) <= 1, "answers: masks of different shapes cannot be stacked")
    overlap = predicted = true = 0
    for cell, truth_cell, (height, width) in zip(
        submission[MASK], answers[MASK], shapes, strict=True
    ):
        size = height * width
        truth = answer_runs("" if truth_cell == CONVENTION.empty else truth_cell, size)
        guess = submission_runs("" if cell == CONVENTION.empty else cell, size)
        overlap += intersection(guess, truth)
        predicted += guess.area
        true += truth.area
    return dice(overlap, predicted, true, both_empty=math.nan)
