"""vesuvius-challenge-ink-detection: F0.5 of the ink pixels of the test fragment.

The answers hold one row (fragment ``a``): ``Id, Predicted`` and the fragment's ``width`` and
``height``. A submission row is ``Id, Predicted``: the ink mask run-length encoded
(``rlecodec``) with pixels numbered left to right, then down, unlike the other segmentation
competitions (upstream decodes the transposed image and transposes it back). Rows are
paired by position; each scores scikit-learn's ``fbeta_score(beta=0.5)`` over every pixel
(0 when nothing is predicted, or nothing is true), and the score is their mean.

Upstream's checks, kept: the same number of rows; exactly two columns, ``Id`` and
``Predicted``; the same ``Id`` as the answers' row; ``Predicted`` must be text, so a blank
cell (read as missing) fails and an empty mask must be written as a space. The overlap is
counted from the runs (the fragment has about 40 million pixels).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import InvalidSubmissionError
from ._helpers import require
from ._masks import answer_runs, intersection, submission_runs

ANSWERS = "inklabels_rle.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
GOLD_SUBMISSION = "gold_submission.csv"

COLUMNS = ["Id", "Predicted"]
BETA2 = 0.5**2


def f_half(true_positives: int, predicted: int, true: int) -> float:
    """scikit-learn 1.5's F-beta from counts: ``(1 + b^2) tp / (b^2 true + predicted)``, 0
    when both are 0."""
    denominator = BETA2 * true + predicted
    return (1 + BETA2) * true_positives / denominator if denominator else 0.0


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            f"Expected {len(answers)} rows in the submission DataFrame, but got "
            f"{len(submission)} rows."
        )
    require(
        set(answers.columns) == {*COLUMNS, "width", "height"},
        f"Expected answer columns {[*COLUMNS, 'width', 'height']}",
    )
    scores = []
    for (_, row), (_, truth) in zip(submission.iterrows(), answers.iterrows(), strict=True):
        if len(row) != len(COLUMNS):
            raise InvalidSubmissionError(
                f"Expected {len(COLUMNS)} indices in the submission DataFrame, but got "
                f"{len(row)} indices."
            )
        if not set(row.index) >= set(COLUMNS):
            raise InvalidSubmissionError(f"Expected columns {COLUMNS}, got {set(row.index)}.")
        if not row["Id"] == truth["Id"]:
            raise AssertionError("Expected 'Id' column to be the same in both DataFrames.")
        if not isinstance(row["Predicted"], str):
            raise InvalidSubmissionError(
                f"Expected 'Predicted' column to be a string, got {type(row['Predicted'])}."
            )
        size = int(truth["width"]) * int(truth["height"])
        guess = submission_runs(row["Predicted"], size)
        ink = answer_runs(truth["Predicted"], size)
        scores.append(f_half(intersection(guess, ink), guess.area, ink.area))
    return float(np.mean(scores))
