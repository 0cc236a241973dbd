"""billion-word-imputation: mean Levenshtein distance between the restored and true sentences.

Each test sentence lost one word (never its first or last); ``sentence`` is the sentence with
the word put back. Rows are matched on ``id`` (sorted, then compared position by position, so
duplicated or foreign ids fail); lower is better. As upstream's config says, the sample
submission (the sentences with their word still missing) lives under ``private/``; agents get
the same text as ``public/test_v2.txt.zip``.

Upstream's quirk, kept: cells reach the distance function as pandas read them, so a missing
sentence (an empty cell reads as NaN) or a column pandas read as numbers fails the whole
grade (``TypeError`` upstream, invalid here) instead of counting as an empty sentence.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd

from . import InvalidSubmissionError
from ._helpers import require
from ._text import id_pairing, mean_levenshtein, text_chunks

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "private/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> np.float64:
    require("id" in answers.columns, "Missing id column in answers")
    require("sentence" in answers.columns, "Missing sentence column in answers")
    for column in ("id", "sentence"):
        if column not in submission.columns:
            raise InvalidSubmissionError(f"Missing {column} column in submission")
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            f"Submission and answers have different lengths: {len(submission)} vs {len(answers)}"
        )
    match, rows = id_pairing(submission["id"], answers["id"])
    if not match:
        raise InvalidSubmissionError("Submission and answers should contain the same IDs")
    truth = text_chunks(answers["sentence"], "as_read")
    predicted = _submitted(text_chunks(submission["sentence"], "as_read", rows))
    return mean_levenshtein(truth, predicted, len(answers))


def _submitted(chunks: Iterator[list[str]]) -> Iterator[list[str]]:
    """The submission's sentences; a cell that is not text makes the submission invalid."""
    try:
        yield from chunks
    except TypeError as e:
        raise InvalidSubmissionError(f"Every sentence must be text: {e}") from None
