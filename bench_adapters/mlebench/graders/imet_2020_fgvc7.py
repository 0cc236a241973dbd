"""imet-2020-fgvc7: micro-F1 of the predicted attribute sets (``attribute_ids``, space-separated
ids) against the true ones, rows matched on ``id``.

Upstream's quirks, kept: the classes are the attribute ids found in the answers, so a predicted
id no answer uses is ignored rather than counted as a false positive; an id repeated in one
cell counts once; an empty cell is an empty set. Ids are compared as text: a submission whose
every cell holds a single id is read by pandas as a number column, which cannot be split, and
fails (as upstream's ``.str`` accessor does); so does a column of single ids with some blanks.
"""

from __future__ import annotations

import pandas as pd

from . import InvalidSubmissionError
from ._helpers import require
from ._labelsets import aligned_rows, label_sets, micro_f1

ANSWERS = "answers.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require(
        "id" in answers.columns and "attribute_ids" in answers.columns,
        "Answers DataFrame must have 'id' and 'attribute_ids' columns",
    )
    if "id" not in submission.columns:
        raise InvalidSubmissionError("Submission DataFrame must have an 'id' column.")
    if "attribute_ids" not in submission.columns:
        raise InvalidSubmissionError("Submission DataFrame must have a 'attribute_ids' column.")
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            "Submission and answers DataFrames must have the same number of rows."
        )
    in_submission, in_answers = aligned_rows(
        submission["id"],
        answers["id"],
        "Submission and answers DataFrames must have matching 'id' columns.",
    )
    truth = list(label_sets(answers["attribute_ids"], in_answers))
    require(all(truth), "Every answer must have at least one attribute")  # else NaN in classes
    classes = {label for row in truth for label in row}
    return micro_f1(truth, label_sets(submission["attribute_ids"], in_submission), classes)
