"""herbarium-2021-fgvc8: graded as herbarium-2020-fgvc7 is (macro-F1 of the integer species id
``Predicted`` over the union of true and predicted labels, rows matched on ``Id``, the answers'
columns checked); only the data differ."""

from __future__ import annotations

from .herbarium_2020_fgvc7 import ANSWERS, SAMPLE_SUBMISSION, grade

__all__ = ["ANSWERS", "SAMPLE_SUBMISSION", "grade"]
