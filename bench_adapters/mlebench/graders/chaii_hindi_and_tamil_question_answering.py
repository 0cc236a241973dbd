"""chaii-hindi-and-tamil-question-answering: mean word-level Jaccard of the answer text.

For each question, the words (lower-cased, split on whitespace) of the predicted and the true
``PredictionString`` are compared as sets, ``|A & B| / |A | B|``, and averaged over questions
(scikit-learn's ``jaccard_score(average="samples")`` on binarized word sets, as upstream). A
row whose two texts are both empty scores 0. Rows are matched on ``id`` (sorted, then compared
position by position). Missing cells count as empty text.

Upstream's quirks, kept: a cell that is not text (a column pandas read as numbers or booleans)
fails, as ``str.lower`` does on it; and when all texts together hold fewer than two distinct
words, scikit-learn does not see a multilabel problem and fails, so such a submission is
invalid too.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import InvalidSubmissionError
from ._helpers import ids_differ, require
from ._text import column_text, jaccard_scores, sorted_positions, vocabulary_size

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
TARGET = "PredictionString"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> np.float64:
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission should be the same length as the answers")
    if TARGET not in submission.columns:
        raise InvalidSubmissionError(f"Submission must have a `{TARGET}` column")
    if "id" not in submission.columns:
        raise InvalidSubmissionError("Submission must have an `id` column")
    require(TARGET in answers.columns, f"Answers must have a `{TARGET}` column")
    require("id" in answers.columns, "Answers must have an `id` column")
    sub_order = sorted_positions(submission["id"])
    ans_order = sorted_positions(answers["id"])
    if ids_differ(submission["id"].iloc[sub_order], answers["id"].iloc[ans_order]):
        raise InvalidSubmissionError("Submission does not contain same IDs as test")
    try:
        predicted = column_text(submission[TARGET].iloc[sub_order], "fillna")
    except TypeError as e:
        raise InvalidSubmissionError(f"Every {TARGET} must be text: {e}") from None
    truth = column_text(answers[TARGET].iloc[ans_order], "fillna")
    words = vocabulary_size(truth, predicted)
    if words < 2:
        raise InvalidSubmissionError(
            f"The answers and predictions hold {words} distinct word(s) in all; scikit-learn's "
            "samples-averaged Jaccard needs at least 2"
        )
    return np.mean(jaccard_scores(truth, predicted, both_empty="zero"))
