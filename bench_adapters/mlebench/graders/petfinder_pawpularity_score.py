"""petfinder-pawpularity-score: RMSE of ``Pawpularity`` (1 to 100).

Every prediction must lie in [1, 100] (a missing one fails this check); rows are matched by
sorting both frames on ``Id`` and comparing the ids. Upstream's quirk, kept: the length is not
checked on its own, so rows missing or added fail comparing ids of unequal length (an error,
invalid).
"""

from __future__ import annotations

import pandas as pd
from sklearn.metrics import root_mean_squared_error

from . import InvalidSubmissionError
from ._helpers import require, sorted_by_id

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
ID, TARGET = "Id", "Pawpularity"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require(ID in answers.columns, f"Missing {ID} column in answers")
    require(TARGET in answers.columns, f"Missing {TARGET} column in answers")
    require(
        bool(answers[TARGET].between(1, 100).all()),
        "Pawpularity in answers should be between 1 and 100",
    )
    if ID not in submission.columns:
        raise InvalidSubmissionError(f"Missing {ID} column in submission")
    if TARGET not in submission.columns:
        raise InvalidSubmissionError(f"Missing {TARGET} column in submission")
    if not submission[TARGET].between(1, 100).all():
        raise InvalidSubmissionError("Pawpularity in submission should be between 1 and 100")
    submission, answers = sorted_by_id(
        submission, answers, ID, "IDs in submission do not match IDs in answers"
    )
    return float(root_mean_squared_error(answers[TARGET].to_numpy(), submission[TARGET].to_numpy()))
