"""Scoring one submission file the way upstream's ``Grader.__call__`` does.

Any exception from the grade function gives ``None`` (an ``InvalidSubmissionError`` is logged as
a warning, anything else as an error); success gives ``round(score, 5)`` with Python's built-in
``round``, so the rounding follows the type the grade function returns, as upstream's does.
Two deliberate differences, both for files upstream would crash on: a file that pandas cannot
read, and a file above the size limit, also give ``None`` instead of an exception.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from bench_adapters.csvio import read_csv

log = logging.getLogger(__name__)

GradeFn = Callable[[pd.DataFrame, Any], float]


def _is_invalid_submission(error: Exception) -> bool:
    from bench_adapters.mlebench.graders import InvalidSubmissionError

    return isinstance(error, InvalidSubmissionError)


def run_grade_fn(grade: GradeFn, submission: pd.DataFrame, answers: Any) -> float | None:
    """Upstream ``Grader.__call__``: the rounded score, or ``None`` on any failure."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            score = grade(submission, answers)
        return round(score, 5)
    except Exception as e:
        level = logging.WARNING if _is_invalid_submission(e) else logging.ERROR
        kind = (
            "Invalid submission" if level == logging.WARNING else "Unexpected error during grading"
        )
        log.log(level, "%s: %s", kind, e)
        return None


def score_file(
    path: Path, grade: GradeFn, answers: Callable[[], Any], max_bytes: int
) -> float | None:
    """Read ``path`` and grade it against ``answers()``; ``None`` when it cannot be scored."""
    size = path.stat().st_size
    if size > max_bytes:
        log.warning(
            "Invalid submission: %s is %d bytes, over the %d-byte limit", path, size, max_bytes
        )
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            submission = read_csv(path)
    except Exception as e:
        log.warning("Invalid submission: %s cannot be read as CSV: %s", path, e)
        return None
    return run_grade_fn(grade, submission, answers())
