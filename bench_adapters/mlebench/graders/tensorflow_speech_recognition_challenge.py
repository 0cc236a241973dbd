"""tensorflow-speech-recognition-challenge: accuracy of the spoken-command ``label``.

Rows are matched on ``fname`` (``clip_<8 digits>.wav``); the 12 labels are the 10 commands,
``silence`` and ``unknown``. Labels are compared as given: a label outside the 12 is simply wrong.
"""

from __future__ import annotations

import pandas as pd

from ._accuracy import accuracy_score
from ._helpers import accuracy_inputs

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
WORDS = ("yes", "no", "up", "down", "left", "right", "on", "off", "stop", "go")
LABELS = (*WORDS, "unknown", "silence")


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    y_true, y_pred = accuracy_inputs(submission, answers, target="label", id_col="fname")
    return accuracy_score(y_true=y_true, y_pred=y_pred)
