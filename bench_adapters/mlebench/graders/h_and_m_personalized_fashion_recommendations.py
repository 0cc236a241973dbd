"""h-and-m-personalized-fashion-recommendations: MAP@12 of the ranked article ids
(``prediction``, up to 12, space-separated) against the articles each customer bought in the
test week, rows matched on ``customer_id``.

Upstream's quirks, kept:

- The answers' article ids lost their leading zero (upstream's preparation reads the
  transactions with pandas, which parses ``0706016001`` as the number 706016001), while Kaggle's
  articles, images and sample submission spell them with ten digits: a zero-padded prediction
  never matches, and the sample submission scores 0.
- The submission names every customer (the sample does: all of ``customers.csv``); only those
  who bought in the test week are scored. Customers beyond them are dropped, so there is no
  length check, and a duplicated customer is kept: after sorting by ``customer_id`` (pandas 2.2's
  unstable quicksort, reproduced here on the same object array) the rows pair with the
  answers by position and the pairs stop at the shorter side.
- Cells are compared as text split on single spaces; a blank cell is the word ``"nan"``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import InvalidSubmissionError
from ._helpers import require
from ._ranking import as_text, mean_average_precision_at_k, ranked

ANSWERS = "answers.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
COLUMNS = {"customer_id", "prediction"}


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require(
        set(answers.columns) == COLUMNS,
        "Answers DataFrame must have 'customer_id' and 'prediction' columns.",
    )
    if set(submission.columns) != COLUMNS:
        raise InvalidSubmissionError(
            "Submission DataFrame must have 'customer_id' and 'prediction' columns."
        )
    customers = set(answers["customer_id"].tolist())
    if not set(submission["customer_id"].tolist()) >= customers:
        raise InvalidSubmissionError(
            "Submission customer_id must be a superset of answers customer_id"
        )
    ids = submission["customer_id"].to_numpy(dtype=object, na_value=np.nan)
    scored = np.flatnonzero([customer in customers for customer in ids])
    order = scored[ids[scored].argsort(kind="quicksort")]
    predictions = as_text(submission["prediction"])
    predicted = ranked(predictions[row] for row in order)
    answers = answers.sort_values("customer_id")
    actual = [set(cell) for cell in ranked(as_text(answers["prediction"]))]
    return mean_average_precision_at_k(actual, predicted, k=12)
