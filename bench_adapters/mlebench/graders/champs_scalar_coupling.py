"""champs-scalar-coupling: mean over coupling types of the log of the mean absolute error.

The submission's ``scalar_coupling_constant`` is merged into the answers on ``id`` after a
check that both hold the same *set* of ids. Upstream's quirks, kept:

- no length check: a duplicated id passes the set check and the merge scores it once per
  copy, so duplicates weigh more;
- a type predicted exactly has ``log(0) = -inf``, so a perfect submission scores ``-inf``
  (valid, and below every leaderboard score);
- a missing or non-numeric prediction fails inside scikit-learn's checks (invalid).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import InvalidSubmissionError
from ._helpers import require
from ._regression import mean_absolute_error

ANSWERS = "answers.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
TARGET = "scalar_coupling_constant"
CHECK_NOTES = {
    "gold": "upstream's metric: exact predictions have log(0) = -inf error per type, which is "
    "valid and beats every leaderboard score"
}


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require(TARGET in answers.columns, f"Target column {TARGET} not found in answers DataFrame.")
    require("id" in answers.columns, "ID column not found in answers DataFrame.")
    require("type" in answers.columns, "Type column not found in answers DataFrame.")
    if TARGET not in submission.columns:
        raise InvalidSubmissionError(f"Target column {TARGET} not found in submission DataFrame.")
    if "id" not in submission.columns:
        raise InvalidSubmissionError("ID column not found in submission DataFrame.")
    submitted, expected = set(submission["id"]), set(answers["id"])
    if submitted != expected:
        raise InvalidSubmissionError(
            f"Submission is missing the following ids: {expected - submitted}"
        )
    merged = answers[["id", "type", TARGET]].merge(
        submission[["id", TARGET]], on="id", suffixes=("_true", "_pred")
    )
    with np.errstate(divide="ignore"):
        logs = [
            np.log(
                mean_absolute_error(
                    group[f"{TARGET}_true"].to_numpy(), group[f"{TARGET}_pred"].to_numpy()
                )
            )
            for _, group in merged.groupby("type")
        ]
    return float(np.mean(logs))
