"""tweet-sentiment-extraction: mean word-level Jaccard of the selected text.

For each tweet, the words (lower-cased, split on whitespace) of the predicted and the true
``selected_text`` are compared as sets: ``|A & B| / |A | B|``, averaged over tweets. Rows are
matched on ``textID`` (sorted, then compared position by position). Missing cells count as
empty text (the sample submission is all empty); other cells are scored as their text.

Upstream's quirk, kept: a tweet whose predicted and true texts are both empty divides by
zero, and that fails the whole grade (invalid, no score), unlike chaii, where such a row
scores 0.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import InvalidSubmissionError
from ._helpers import ids_differ, require
from ._text import column_text, jaccard_scores, sorted_positions

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if "textID" not in submission.columns:
        raise InvalidSubmissionError("Submission DataFrame must have a 'textID' column.")
    if "selected_text" not in submission.columns:
        raise InvalidSubmissionError("Submission DataFrame must have a 'selected_text' column.")
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            "Submission and answers DataFrames must have the same number of rows."
        )
    require("textID" in answers.columns, "Answers DataFrame must have a 'textID' column.")
    require(
        "selected_text" in answers.columns, "Answers DataFrame must have a 'selected_text' column."
    )
    sub_order = sorted_positions(submission["textID"])
    ans_order = sorted_positions(answers["textID"])
    if ids_differ(submission["textID"].iloc[sub_order], answers["textID"].iloc[ans_order]):
        raise InvalidSubmissionError(
            "Submission and answers DataFrames must have the same textID values."
        )
    predicted = column_text(submission["selected_text"].iloc[sub_order], "fillna_astype_str")
    truth = column_text(answers["selected_text"].iloc[ans_order], "fillna_astype_str")
    return float(np.mean(jaccard_scores(truth, predicted, both_empty="fail")))
