"""hms-harmful-brain-activity-classification: Kullback-Leibler divergence of the predicted class
probabilities from the experts' vote shares, the mean of each row's sum (lower is better).

A submission has ``eeg_id`` and six probabilities (``seizure_vote``, ``lpd_vote``,
``gpd_vote``, ``lrda_vote``, ``grda_vote``, ``other_vote``); the answers (``test.csv``) hold
the vote counts, which become shares of each row's total. Per cell the loss is
``y * log(y / p)`` with ``p`` clipped to [1e-15, 1 - 1e-15], 0 where ``y`` is 0 (Kaggle's
``kullback_leibler_divergence`` metric). Upstream's checks: the columns, the answers' length,
each row's probabilities summing to 1 at 5 decimals (a blank counts as 0), the same set of
ids (``InvalidSubmissionError``); then the metric's own: every column but ``eeg_id``,
extra ones included, numeric, in [0, 1] and summing to 1 per row (``np.allclose``), an error
otherwise. A blank probability passes those (it is skipped in the sums) and adds no loss.

``eeg_id`` repeats in the answers (one row per labelled window of an EEG), and rows are paired
after sorting both sides on it. Upstream sorts with numpy's default, unstable sort, so which
submission row meets which answer row of the same EEG depends on numpy's version and the CPU
(AVX-512 or not): upstream's own score is not reproducible across machines. Here the sort is
stable (file order within an id). The score is the same whichever order wherever each id has
as many rows on both sides and its answer rows are identical (Kaggle's windows of one EEG
mostly share their votes, as every one of the synthetic fixture's does), or its submission
rows are; :func:`order_decides` tells the other cases (an id repeated more often in the
submission than in the answers, with other ids fewer times: the same set, other rows), where
the parity data can only check validity.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from pandas.api.types import is_bool_dtype, is_numeric_dtype

from . import InvalidSubmissionError
from ._helpers import require

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
GOLD_SUBMISSION = "gold_submission.csv"
ID = "eeg_id"
TARGETS = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"]
EPSILON = 1e-15


def row_sums(frame: pd.DataFrame) -> pd.Series:
    """Each row's sum, blanks skipped; text fails (as adding text to numbers does)."""
    for column in frame.columns:
        if not (is_numeric_dtype(frame[column]) or is_bool_dtype(frame[column])):
            raise TypeError(f"unsupported operand type(s) for +: column {column!r} holds text")
    return frame.sum(axis=1)


def check_probabilities(frame: pd.DataFrame, name: str) -> None:
    """The metric's ``verify_valid_probabilities``."""
    if not is_numeric_dtype(frame.to_numpy().dtype):
        raise ValueError(f"All target values in {name} must be numeric")
    if frame.min().min() < 0:
        raise ValueError(f"All target values in {name} must be at least zero")
    if frame.max().max() > 1:
        raise ValueError(f"All target values in {name} must be no greater than one")
    if not np.allclose(row_sums(frame), 1):
        raise ValueError(f"Target values in {name} do not add to one within all rows")


def kl_divergence(solution: pd.DataFrame, predicted: pd.DataFrame) -> float:
    """Mean over rows of the summed ``y * log(y / p)`` (rows paired by position)."""
    losses = {}
    for column in TARGETS:
        y = solution[column].to_numpy(dtype=float)
        p = np.clip(predicted[column].to_numpy(dtype=float), EPSILON, 1 - EPSILON)
        nonzero = y != 0
        loss = np.zeros(len(y))
        with np.errstate(divide="ignore", invalid="ignore"):
            loss[nonzero] = y[nonzero] * np.log(y[nonzero] / p[nonzero])
        losses[column] = loss
    return float(np.average(pd.DataFrame(losses).sum(axis=1)))


def _varied(frame: pd.DataFrame) -> pd.Series:
    """Per id, whether its rows differ in any target."""
    return frame.groupby(ID)[TARGETS].nunique(dropna=False).max(axis=1) > 1


def order_decides(submission: pd.DataFrame, answers: pd.DataFrame) -> bool:
    """Whether the order upstream's unstable sort gives rows of one id can change the score:
    with each id as often on both sides, where some id's rows differ on both sides; else
    (rows paired across ids), where any id's rows differ on either side."""
    sub_varied, ans_varied = _varied(submission), _varied(answers)
    same_counts = (
        submission[ID].value_counts().sort_index().equals(answers[ID].value_counts().sort_index())
    )
    if same_counts:
        both = sub_varied & ans_varied.reindex(sub_varied.index, fill_value=False)
        return bool(both.any())
    return bool(sub_varied.any() or ans_varied.any())


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if ID not in submission.columns:
        raise InvalidSubmissionError(f"Submission must contain {ID} column")
    if not all(column in submission.columns for column in TARGETS):
        raise InvalidSubmissionError(f"Submission must contain all target columns: {TARGETS}")
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission and answers must have the same length")
    if not all(round(total, 5) == 1 for total in row_sums(submission[TARGETS]).tolist()):
        raise InvalidSubmissionError("Submission probabilities must add to 1 for each row")
    if set(answers[ID]) != set(submission[ID]):
        raise InvalidSubmissionError("Submission and answers must have the same IDs")
    require(ID in answers.columns, f"Answers must contain {ID} column")
    require(all(c in answers.columns for c in TARGETS), f"Answers must contain all {TARGETS}")
    submission = submission.sort_values(ID, kind="stable").reset_index(drop=True)
    answers = answers.sort_values(ID, kind="stable").reset_index(drop=True)
    votes = answers[TARGETS]
    solution = votes.div(votes.sum(axis=1), axis=0)
    predicted = submission.drop(columns=ID)
    check_probabilities(solution, "solution")
    check_probabilities(predicted, "submission")
    return kl_divergence(solution, predicted)
