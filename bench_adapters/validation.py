"""The agent-facing submission check: ``(ok, message)`` with upstream's messages, never a score.

Order (upstream ``validate_submission``): the path must be a file, its suffix ``.csv``; then the
grade function runs on the file and any exception becomes the message. A NaN score is valid.
Added for robustness: a file far larger than any real submission is refused unread.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_adapters.csvio import read_csv
from bench_adapters.scoring import GradeFn

VALID = "Submission is valid."
NOT_A_FILE = "Submission invalid! Submission file {path} does not exist."
NOT_CSV = "Submission invalid! Submission file must be a CSV file."
GRADE_ERROR = (
    "Submission invalid! The attempt to grade the submission has resulted in the following "
    "error message:\n{error}"
)
TOO_LARGE = (
    "Submission invalid! Submission file is {size} bytes, more than the {limit} bytes "
    "allowed for this competition."
)


def check_path(path: Path) -> tuple[bool, str] | None:
    """The two file checks; ``None`` when both pass."""
    if not path.is_file():
        return False, NOT_A_FILE.format(path=path)
    if path.suffix.lower() != ".csv":
        return False, NOT_CSV
    return None


def validate_file(
    path: Path, grade: GradeFn, answers: Callable[[], Any], max_bytes: int
) -> tuple[bool, str]:
    """Run the grade function on ``path``; the caller has already checked the path."""
    size = path.stat().st_size
    if size > max_bytes:
        return False, TOO_LARGE.format(size=size, limit=max_bytes)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            grade(read_csv(path), answers())
    except Exception as e:
        return False, GRADE_ERROR.format(error=e)
    return True, VALID
