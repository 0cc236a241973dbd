"""us-patent-phrase-to-phrase-matching: Pearson correlation of the predicted ``score`` with
the true similarity of each phrase pair.

Rows are matched by sorting both frames on ``id`` and comparing the ids. Upstream's quirks,
kept: constant predictions (the sample submission's zeros) or any missing or infinite one
correlate as NaN, a valid score that ranks nowhere; text predictions fail in scipy (invalid).
"""

from __future__ import annotations

import pandas as pd
from scipy.stats import pearsonr

from . import InvalidSubmissionError
from ._helpers import ids_differ

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
CHECK_NOTES = {
    "sample": "upstream's metric: the Pearson correlation of constant predictions is NaN, "
    "which upstream counts valid and which ranks nowhere"
}


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission and answers must have the same number of rows")
    if not {"id", "score"}.issubset(submission.columns):
        raise InvalidSubmissionError(
            f"Submission must have columns ['id', 'score'], got {list(submission.columns)}"
        )
    submission = submission.sort_values("id")
    answers = answers.sort_values("id")
    if ids_differ(submission["id"], answers["id"]):
        raise InvalidSubmissionError("Ids mismatch between submission and answers")
    y_true = answers["score"].to_numpy()
    y_pred = submission["score"].to_numpy()
    if y_pred.dtype == object:  # text: scipy rejects it (its message varies by version)
        raise ValueError(f"data type {y_pred.dtype} not inexact")
    return float(pearsonr(y_true, y_pred)[0])
