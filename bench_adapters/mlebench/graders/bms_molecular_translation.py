"""bms-molecular-translation: mean Levenshtein distance between predicted and true InChI.

Rows are matched on ``image_id`` (sorted, then compared position by position, so duplicated
or foreign ids fail); lower is better. The sample submission predicts water,
``InChI=1S/H2O/h1H2``, for every image.

Upstream's quirk, kept: both InChI columns go through ``astype(str)`` before the distance,
which under upstream's pandas 2 turns a missing cell into the text ``"nan"``: a blank
prediction is scored as that three-letter string, not rejected (pandas 3 would keep it
missing, and the distance would fail). A column pandas read as numbers is scored as their
text (``str(value)``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import InvalidSubmissionError
from ._helpers import require
from ._text import id_pairing, mean_levenshtein, text_chunks

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> np.float64:
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission and answers must have the same length")
    if "image_id" not in submission.columns:
        raise InvalidSubmissionError("Submission must have an 'image_id' column")
    if "InChI" not in submission.columns:
        raise InvalidSubmissionError("Submission must have a 'InChI' column")
    require("image_id" in answers.columns, "Answers must have 'image_id' column")
    require("InChI" in answers.columns, "Answers must have 'InChI' column")
    match, rows = id_pairing(submission["image_id"], answers["image_id"])
    if not match:
        raise InvalidSubmissionError("Submission and answers must have the same ids")
    truth = text_chunks(answers["InChI"], "astype_str")
    predicted = text_chunks(submission["InChI"], "astype_str", rows)
    return mean_levenshtein(truth, predicted, len(answers))
