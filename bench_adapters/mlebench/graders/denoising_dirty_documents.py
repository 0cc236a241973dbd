"""denoising-dirty-documents: RMSE over pixel intensities.

Each row is one pixel, ``id = <image>_<row>_<col>`` (1-based), ``value`` in [0, 1].
"""

from __future__ import annotations

import pandas as pd
from sklearn.metrics import root_mean_squared_error

from . import InvalidSubmissionError
from ._helpers import ids_differ, require

ANSWERS = "answers.csv"
SAMPLE_SUBMISSION = "public/sampleSubmission.csv"


def _is_float_castable(values: pd.Series) -> bool:
    try:
        values.astype(float)
    except ValueError:
        return False
    return True


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require("id" in answers.columns, "Answers must have an 'id' column.")
    require("value" in answers.columns, "Answers must have a 'value' column.")
    require(
        _is_float_castable(answers["value"]),
        "Answers must have float values in the 'value' column.",
    )
    if "id" not in submission.columns:
        raise InvalidSubmissionError("Submission must have an 'id' column.")
    if "value" not in submission.columns:
        raise InvalidSubmissionError("Submission must have a 'value' column.")
    if not _is_float_castable(submission["value"]):
        raise InvalidSubmissionError("Submission must have float values in the 'value' column.")
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            f"Expected the submission to have {len(answers)} rows, but got {len(submission)}."
        )
    submission = submission.sort_values(by="id")
    answers = answers.sort_values(by="id")
    if ids_differ(submission["id"], answers["id"]):
        raise InvalidSubmissionError(
            "Expected the submission to have the same 'id' values as the answers, but they differ."
        )
    # Upstream passes the submission as y_true; the value is the same, error messages follow it.
    return root_mean_squared_error(y_true=submission["value"], y_pred=answers["value"])
