"""nfl-player-contact-detection: Matthews correlation of ``contact`` (0/1), rows matched on
``contact_id`` (about 470k rows).

Upstream's checks, in order: both columns present, the same set of ``contact_id`` values as
the answers, the same length; then both frames are sorted on ``contact_id`` and compared by
position. Here the sorted ids are compared first; only when they differ are the distinct ids
compared, then the lengths (upstream's Python sets of 470k strings take seconds): the same
verdicts and messages. Labels go to scikit-learn unconverted: probabilities (a mix of binary
and continuous labels) or blanks fail there, and a constant prediction scores 0.
"""

from __future__ import annotations

import pandas as pd
from sklearn.metrics import matthews_corrcoef

from . import InvalidSubmissionError
from ._helpers import require, same_order

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def distinct(ids: pd.Series) -> pd.Series:
    """The distinct values of a sorted column, in order (a missing value never equals one)."""
    return ids[ids.ne(ids.shift())].reset_index(drop=True)


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require("contact_id" in answers.columns, "contact_id column not found in answers")
    require("contact" in answers.columns, "contact column not found in answers")
    if not {"contact_id", "contact"} <= set(submission.columns):
        raise InvalidSubmissionError("Submission must have columns: contact_id, contact")
    if same_order(submission["contact_id"], answers["contact_id"]):  # the same pairs, unsorted
        return matthews_corrcoef(answers["contact"].to_numpy(), submission["contact"].to_numpy())
    submission = submission[["contact_id", "contact"]].sort_values("contact_id")
    answers = answers[["contact_id", "contact"]].sort_values("contact_id")
    ours, truth = submission["contact_id"], answers["contact_id"]
    aligned = len(ours) == len(truth) and bool(
        ours.reset_index(drop=True).eq(truth.reset_index(drop=True)).all()
    )
    if not aligned:  # upstream compares Python sets (seconds at 470k rows), then lengths
        mine, theirs = distinct(ours), distinct(truth)
        if len(mine) != len(theirs) or not mine.eq(theirs).all():
            raise InvalidSubmissionError(
                "Submission contact_id's inconsistent with answers contact_id's"
            )
        if len(submission) != len(answers):
            raise InvalidSubmissionError(
                "Submission and answers have different lengths: submission has "
                f"{len(submission)} samples, answers has {len(answers)} samples"
            )
    return matthews_corrcoef(answers["contact"].to_numpy(), submission["contact"].to_numpy())
