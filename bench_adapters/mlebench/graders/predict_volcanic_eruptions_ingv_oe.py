"""predict-volcanic-eruptions-ingv-oe: mean absolute error of ``time_to_eruption``, rounded to
an integer.

The submission's ``time_to_eruption`` is merged into the answers on ``segment_id`` after a
check that both hold the same *set* of ids. Upstream's quirks, kept: the score is
``int(round(mae))``, an integer; no length check, so a duplicated id passes the set check and
the merge scores it once per copy; a missing or non-numeric prediction fails inside
scikit-learn's checks, and predictions so large that the error overflows to infinity fail
converting it to an integer (both invalid).
"""

from __future__ import annotations

import pandas as pd

from . import InvalidSubmissionError
from ._helpers import require
from ._regression import mean_absolute_error

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
ID, TARGET = "segment_id", "time_to_eruption"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> int:
    require(TARGET in answers.columns, f"Target column {TARGET} not found in answers DataFrame.")
    require(ID in answers.columns, "Segment ID column not found in answers DataFrame.")
    if TARGET not in submission.columns:
        raise InvalidSubmissionError(f"Target column {TARGET} not found in submissions DataFrame.")
    if ID not in submission.columns:
        raise InvalidSubmissionError("Segment ID column not found in submission DataFrame.")
    submitted, expected = set(submission[ID]), set(answers[ID])
    if submitted != expected:
        raise InvalidSubmissionError(
            f"Submission is missing the following segment_ids: {expected - submitted}"
        )
    merged = answers[[ID, TARGET]].merge(
        submission[[ID, TARGET]], on=ID, suffixes=("_true", "_pred")
    )
    error = mean_absolute_error(
        merged[f"{TARGET}_true"].to_numpy(), merged[f"{TARGET}_pred"].to_numpy()
    )
    return round(error)  # an int; OverflowError for an infinite error
