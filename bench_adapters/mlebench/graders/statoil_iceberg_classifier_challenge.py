"""statoil-iceberg-classifier-challenge: binary log loss of ``is_iceberg`` (a probability).

The submission must hold the answers' ``id`` set and probabilities in [0, 1]; rows are aligned
by sorting on ``id``. As in upstream's config, the sample submission lives under ``private/``.
A non-numeric ``is_iceberg`` is a submission fault here (upstream fails on the comparison).
"""

from __future__ import annotations

import pandas as pd
from sklearn.metrics import log_loss

from . import InvalidSubmissionError
from ._helpers import require

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "private/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require("id" in answers.columns, "Answers is missing `id` column")
    require("is_iceberg" in answers.columns, "Answers is missing `is_iceberg` column")
    if "id" not in submission.columns:
        raise InvalidSubmissionError("Submission is missing `id` column")
    if "is_iceberg" not in submission.columns:
        raise InvalidSubmissionError("Submission is missing `is_iceberg` column")
    if set(submission["id"]) != set(answers["id"]):
        raise InvalidSubmissionError("Submission and answers have different id's")
    probabilities = pd.to_numeric(submission["is_iceberg"], errors="coerce")
    if probabilities.isna().any() or not probabilities.between(0, 1).all():
        raise InvalidSubmissionError(
            "All values in submission `is_iceberg` must be between 0 and 1."
        )
    submission = submission.assign(is_iceberg=probabilities).sort_values("id")
    answers = answers.sort_values("id")
    return log_loss(answers["is_iceberg"], submission["is_iceberg"], labels=[0, 1])
