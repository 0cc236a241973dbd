"""herbarium-2022-fgvc9: macro-F1 of the predicted species (``Predicted``, an integer category
id) against the true ones, rows matched on ``Id``.

Upstream's quirks, kept: the average runs over the union of true and predicted labels, so every
category predicted but never true adds a zero; each cell goes through Python's ``int`` (a float
is truncated, text such as ``"12"`` parses, a blank, ``"1.0"`` or an infinity fails). Unlike the
2020 and 2021 editions, upstream checks nothing of the answers' columns here.
"""

from __future__ import annotations

import pandas as pd

from ._labelsets import integer_f1_inputs, macro_f1

ANSWERS = "answers.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    return macro_f1(*integer_f1_inputs(submission, answers, check_answers=False))
