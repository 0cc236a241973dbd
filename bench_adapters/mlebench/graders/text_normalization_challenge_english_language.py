"""text-normalization-challenge-english-language: share of tokens whose ``after`` text is exact.

Rows are matched on ``id = <sentence>_<token>``. As in upstream's config, the sample submission
lives under ``private/`` (agents get the same content zipped in ``public/``).
"""

from __future__ import annotations

from ._text_normalization import grade_text_accuracy as grade

ANSWERS = "answers.csv"
SAMPLE_SUBMISSION = "private/sample_submission.csv"

__all__ = ["ANSWERS", "SAMPLE_SUBMISSION", "grade"]
