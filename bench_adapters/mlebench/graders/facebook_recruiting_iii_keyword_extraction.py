"""facebook-recruiting-iii-keyword-extraction: micro-F1 of the predicted tag sets (``Tags``,
space-separated) against the true ones, rows matched on ``Id``.

Upstream's quirks, kept: the classes are the tags of the answers (only cells that are
strings), so a predicted tag no answer uses is ignored rather than counted as a false
positive; a tag repeated in one cell counts once; an empty ``Tags`` cell is an empty set; a
``Tags`` column that pandas reads as numbers cannot be split and fails, unless it is empty
everywhere. The sample submission carries ``Title`` and ``Body`` too (upstream copies the test
table and adds ``Tags``); extra columns are allowed.

The answers hold the questions' ``Title`` and ``Body`` (about 603k rows of long text at full
size): only ``Id`` and ``Tags`` are read, and only the ids are sorted, so grading copies no
text.
"""

from __future__ import annotations

import pandas as pd

from . import InvalidSubmissionError
from ._helpers import require
from ._labelsets import aligned_rows, cells, label_sets, micro_f1

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require("Id" in answers.columns, "Answers must have an 'Id' column.")
    require("Tags" in answers.columns, "Answers must have a 'Tags' column.")
    if "Id" not in submission.columns:
        raise InvalidSubmissionError("Submission DataFrame must have an 'Id' column.")
    if "Tags" not in submission.columns:
        raise InvalidSubmissionError("Submission DataFrame must have a 'Tags' column.")
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            "Submission DataFrame must have the same number of rows as the answers DataFrame."
        )
    in_submission, in_answers = aligned_rows(
        submission["Id"], answers["Id"], "Submission and answers must have matching 'Id's."
    )
    classes: set[str] = set()
    for tags in cells(answers["Tags"]):
        if isinstance(tags, str):
            classes.update(tags.split())
    truth = label_sets(answers["Tags"], in_answers)
    predicted = label_sets(submission["Tags"], in_submission)
    return micro_f1(truth, predicted, classes)
