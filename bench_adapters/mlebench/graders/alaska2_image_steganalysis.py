"""alaska2-image-steganalysis: weighted ROC-AUC of ``Label`` (the chance an image hides a
message), rows matched on ``Id``.

The area under the ROC curve is cut horizontally at TPR 0.4: the band below counts twice, the
band above once, and the sum is divided by 1.4, so a perfect ranking scores 1 and a constant
one 0.58571. As upstream, the point TPR = 0.4 is first inserted into the curve (its FPR
interpolated linearly) so that no segment straddles the cut; each band's area is that of its
curve points plus a closing point at FPR 1.

Upstream's checks: length, ``Id`` and ``Label`` columns, ids equal after sorting, labels that
``astype(float)`` accepts, no NaN. There is no range check (only ranks matter).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.metrics import auc, roc_curve

from . import InvalidSubmissionError
from ._helpers import ids_differ, require

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
TPR_CUTS = [0.0, 0.4, 1.0]
WEIGHTS = [2, 1]


def with_cut(fpr: list[float], tpr: list[float], cut: float) -> None:
    """Insert the point at TPR ``cut`` (FPR interpolated) before the first TPR above it,
    unless the curve has that TPR already."""
    if cut in tpr:
        return
    for i, value in enumerate(tpr):
        if value > cut:
            step = (fpr[i] - fpr[i - 1]) * (cut - tpr[i - 1]) / (value - tpr[i - 1])
            fpr.insert(i, fpr[i - 1] + step)
            tpr.insert(i, cut)
            return


def weighted_auc(y_true: np.ndarray, y_score: np.ndarray) -> float:
    fpr_curve, tpr_curve, _ = roc_curve(y_true, y_score, pos_label=1)
    fpr_list, tpr_list = fpr_curve.tolist(), tpr_curve.tolist()
    for cut in TPR_CUTS:
        with_cut(fpr_list, tpr_list, cut)
    fpr, tpr = np.array(fpr_list), np.array(tpr_list)
    total = 0
    for k, weight in enumerate(WEIGHTS):
        low, high = TPR_CUTS[k], TPR_CUTS[k + 1]
        band = (low <= tpr) & (tpr <= high)
        if not band.any():
            continue
        xs = np.concatenate([fpr[band], [1]])
        ys = np.concatenate([tpr[band], [high]]) - low
        total += auc(xs, ys) * weight
    return total / np.dot(np.array(TPR_CUTS[1:]) - np.array(TPR_CUTS[:-1]), WEIGHTS)


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission and answers must have the same length")
    if "Id" not in submission.columns:
        raise InvalidSubmissionError("Submission must have an 'Id' column")
    if "Label" not in submission.columns:
        raise InvalidSubmissionError("Submission must have a 'Label' column")
    submission = submission.sort_values("Id")
    answers = answers.sort_values("Id")
    if ids_differ(submission["Id"], answers["Id"]):
        raise InvalidSubmissionError("Submission and answers must have the same ids")
    try:
        y_score = submission["Label"].astype(float).to_numpy()
    except ValueError:
        raise InvalidSubmissionError("Labels in submission must be numbers") from None
    y_true = answers["Label"].astype(float).to_numpy()
    require(not np.isnan(y_true).any(), "Answers cannot contain NaNs")
    if np.isnan(y_score).any():
        raise InvalidSubmissionError("Submission cannot contain NaNs")
    return weighted_auc(y_true, y_score)
