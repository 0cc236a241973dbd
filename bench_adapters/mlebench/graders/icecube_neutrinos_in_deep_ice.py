"""icecube-neutrinos-in-deep-ice: mean angle (radians) between the true and the predicted
direction, each given as ``azimuth`` and ``zenith``.

The submission's columns must be exactly ``event_id``, ``azimuth``, ``zenith``, both angles a
numeric (not boolean) dtype with every value finite (a missing value fails the "infinite"
check first, as upstream's order of checks has it), with as many rows as the answers and the
same set of event ids; rows are paired after sorting both on ``event_id``. Upstream's
quirks, kept: angles outside their range are scored as given (the cosine is clipped to
[-1, 1]); ids read as floats match the answers' integers.

At 13.2 M answer rows the grade makes no copy of either frame: rows already in id order (as
the answers and the sample submission are) are paired as they stand, others through an
``argsort``, and the angles are computed a chunk at a time.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import InvalidSubmissionError
from ._helpers import require

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
COLUMNS = {"azimuth", "zenith", "event_id"}
CHUNK = 1 << 18


def _is_number(column: pd.Series) -> bool:
    """``np.issubdtype(dtype, np.number)``: booleans, text and pandas' own dtypes are not."""
    return isinstance(column.dtype, np.dtype) and np.issubdtype(column.dtype, np.number)


def _finite(column: pd.Series) -> bool:
    values = column.to_numpy()
    return all(np.isfinite(values[s : s + CHUNK]).all() for s in range(0, len(values), CHUNK))


def _order(ids: np.ndarray) -> np.ndarray | None:
    """Positions that sort ``ids``; None when they are sorted already."""
    if len(ids) < 2 or bool((ids[1:] >= ids[:-1]).all()):
        return None
    return np.argsort(ids, kind="stable")


def _same_numeric_ids(
    left: np.ndarray,
    right: np.ndarray,
    left_order: np.ndarray | None,
    right_order: np.ndarray | None,
) -> bool:
    """``set(left) == set(right)`` for number columns of one length: equal once sorted (the
    quick test, a chunk at a time), else equal sets of unique values."""
    for start in range(0, len(left), CHUNK):
        span = slice(start, start + CHUNK)
        a = left[span] if left_order is None else left[left_order[span]]
        b = right[span] if right_order is None else right[right_order[span]]
        if not np.array_equal(a, b):
            return np.array_equal(np.unique(left), np.unique(right))
    return True


def angular_error_sum(
    az_true: np.ndarray,
    zen_true: np.ndarray,
    az_pred: np.ndarray,
    zen_pred: np.ndarray,
) -> float:
    """Sum over rows of the angle between the two directions (upstream's host notebook)."""
    sz1, cz1, sz2, cz2 = np.sin(zen_true), np.cos(zen_true), np.sin(zen_pred), np.cos(zen_pred)
    cos_delta = np.cos(az_true) * np.cos(az_pred) + np.sin(az_true) * np.sin(az_pred)
    scalar = np.clip(sz1 * sz2 * cos_delta + cz1 * cz2, -1, 1)
    return float(np.abs(np.arccos(scalar)).sum())


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if set(submission.columns) != COLUMNS:
        raise InvalidSubmissionError(
            "Submission must contain columns 'azimuth','zenith' and 'event_id'"
        )
    for column, name in (("azimuth", "Azimuth"), ("zenith", "Zenith")):
        if not _is_number(submission[column]):
            raise InvalidSubmissionError(f"{name} must be a number")
    for column, name in (("azimuth", "Azimuth"), ("zenith", "Zenith")):
        if not _finite(submission[column]):
            raise InvalidSubmissionError(f"{name} must not be infinite")
    require(
        set(answers.columns) == COLUMNS,
        "Answers must contain columns 'azimuth','zenith' and 'event_id'",
    )
    for column, name in (("azimuth", "Azimuth"), ("zenith", "Zenith")):
        require(_is_number(answers[column]), f"{name} must be a number")
        require(_finite(answers[column]), f"{name} must not be infinite")
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission and answers must have the same length")
    ids, expected = submission["event_id"], answers["event_id"]
    numeric = _is_number(ids) and _is_number(expected)
    if not numeric and set(ids) != set(expected):
        raise InvalidSubmissionError("Submission and answers must have the same event_ids")
    sub_order, ans_order = _order(ids.to_numpy()), _order(expected.to_numpy())
    if numeric and not _same_numeric_ids(ids.to_numpy(), expected.to_numpy(), sub_order, ans_order):
        raise InvalidSubmissionError("Submission and answers must have the same event_ids")
    # Same length and the same id set: with the answers' ids unique, both sorted id columns
    # are equal, so pairing sorted positions pairs equal ids.
    az_pred, zen_pred = submission["azimuth"].to_numpy(), submission["zenith"].to_numpy()
    az_true, zen_true = answers["azimuth"].to_numpy(), answers["zenith"].to_numpy()
    total = 0.0
    for start in range(0, len(answers), CHUNK):
        span = slice(start, start + CHUNK)
        pred = span if sub_order is None else sub_order[span]
        true = span if ans_order is None else ans_order[span]
        total += angular_error_sum(az_true[true], zen_true[true], az_pred[pred], zen_pred[pred])
    return total / len(answers)
