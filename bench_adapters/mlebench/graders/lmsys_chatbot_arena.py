"""lmsys-chatbot-arena: multi-class log loss of the three outcome probabilities.

The submission holds ``id,winner_model_a,winner_model_b,winner_tie``: each value in [0, 1] and
each row summing to 1 (to 6 decimals), for exactly the answers' ids. The answers are one-hot.
A non-numeric probability is a submission fault here (upstream fails on the comparison).
"""

from __future__ import annotations

import pandas as pd
from sklearn.metrics import log_loss

from . import InvalidSubmissionError
from ._helpers import one_hot_log_loss_inputs, require

ANSWERS = "answers.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
CLASSES = ["winner_model_a", "winner_model_b", "winner_tie"]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    required = ["id", *CLASSES]
    missing = [c for c in required if c not in submission.columns]
    if missing:
        raise InvalidSubmissionError(f"Submission DataFrame is missing required columns: {missing}")
    require(
        set(required).issubset(answers.columns),
        f"Answers DataFrame is missing required columns: {set(required) - set(answers.columns)}",
    )
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            f"Submission DataFrame must have {len(answers)} rows, but has {len(submission)} rows."
        )
    values = submission[CLASSES].apply(pd.to_numeric, errors="coerce")
    if values.isna().any().any() or not ((values >= 0) & (values <= 1)).all().all():
        raise InvalidSubmissionError("All values in submission DataFrame must be between 0 and 1.")
    if not values.sum(axis=1).round(6).eq(1).all():
        raise InvalidSubmissionError("Each row in submission DataFrame must sum to 1.")
    submission = submission[["id"]].join(values).sort_values("id").reset_index(drop=True)
    answers = answers[required].sort_values("id").reset_index(drop=True)
    if (submission["id"].values != answers["id"].values).any():
        raise InvalidSubmissionError("Submission and answer IDs do not match after sorting.")
    y_true, y_pred = one_hot_log_loss_inputs(submission, answers, id_col="id")
    return log_loss(y_true, y_pred)  # positional: sklearn 1.9 renamed y_pred
