"""siim-covid19-detection: mean over classes of a PASCAL-VOC-style average precision at IoU 0.5.

Rows are studies (``<id>_study``: ``negative``, ``typical``, ``indeterminate`` or ``atypical``
with the dummy box ``1 0 0 1 1``) and images (``<id>_image``: ``opacity`` boxes, or
``none 1 0 0 1 1``); ``PredictionString`` is ``"<class> <confidence> <x_min> <y_min> <x_max>
<y_max>"`` repeated. Both frames are sorted on ``id`` and must then agree id by id. Per class
present in the answers (so all six are ordinary classes, and a predicted class the answers
lack is ignored), each row's predictions of that class, most confident first, take the
unmatched truth box of the class with the highest IoU above 0.5 (strictly): a true positive
``(1, confidence)``, else a false positive ``(0, confidence)``; each truth box left over adds
``(1, 0)`` and a row with neither adds ``(0, 0)``; the class's AP is scikit-learn's
``average_precision_score`` of those pairs, and the score is the mean over classes.

Upstream's quirks, kept: the IoU is computed with Python's ``max``/``min`` on the raw corners
(a reversed box has a negative area, and a union of zero or less gives 0); a blank prediction
(read as NaN) fails to parse, an error (invalid), while a cell of spaces is an empty
prediction; a token count that is not a multiple of 6 fails (an ``IndexError``: invalid) and
an unparsable number raises ``InvalidSubmissionError``; the confidence sort is Python's stable
``list.sort`` run again in place for every class (NaN confidences then fail scikit-learn's
finiteness check, as do infinite ones); a class whose pairs are all positive fails upstream's
assertion (invalid).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from sklearn.metrics import average_precision_score

from . import InvalidSubmissionError
from ._helpers import require

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
ID, PREDICTION = "id", "PredictionString"
IOU_THRESHOLD = 0.5

Box = tuple[Any, ...]
"""(class, confidence, x_min, y_min, x_max, y_max)."""


def parse(prediction: object) -> list[Box]:
    """Upstream's parse: whitespace-separated tokens in sixes."""
    tokens = prediction.strip().split()  # type: ignore[attr-defined]  # NaN: fails, as upstream
    try:
        return [
            (
                tokens[i],
                float(tokens[i + 1]),
                float(tokens[i + 2]),
                float(tokens[i + 3]),
                float(tokens[i + 4]),
                float(tokens[i + 5]),
            )
            for i in range(0, len(tokens), 6)
        ]
    except ValueError as e:
        raise InvalidSubmissionError(f"Could not parse PredictionString: {e}") from None


def iou(a: Box, b: Box) -> float:
    """IoU of two (x_min, y_min, x_max, y_max) boxes, with upstream's arithmetic."""
    ax0, ay0, ax1, ay1 = a
    bx0, by0, bx1, by1 = b
    inter = max(0, min(ax1, bx1) - max(ax0, bx0)) * max(0, min(ay1, by1) - max(ay0, by0))
    union = (ax1 - ax0) * (ay1 - ay0) + (bx1 - bx0) * (by1 - by0) - inter
    return inter / union if union > 0 else 0.0


def class_pairs(
    cls: str, predictions: list[list[Box]], truths: list[list[Box]]
) -> list[tuple[Any, ...]]:
    """(is a true box, confidence) pairs of one class over every row."""
    pairs: list[tuple[Any, ...]] = []
    for row_predictions, row_truths in zip(predictions, truths, strict=True):
        boxes = [t[2:] for t in row_truths if t[0] == cls]
        row_predictions.sort(key=lambda p: p[1], reverse=True)  # in place, as upstream
        matched = [False] * len(boxes)
        row: list[tuple[Any, ...]] = []
        for p in row_predictions:
            if p[0] != cls:
                continue
            best, best_index = 0.0, -1
            for i, box in enumerate(boxes):
                if matched[i]:
                    continue
                overlap = iou(p[2:], box)
                if overlap > best and overlap > IOU_THRESHOLD:
                    best, best_index = overlap, i
            if best_index != -1:
                matched[best_index] = True
            row.append((1 if best_index != -1 else 0, p[1]))
        row += [(1, 0)] * matched.count(False)
        pairs += row or [(0, 0)]
    return pairs


def mean_average_precision(predictions: list[list[Box]], truths: list[list[Box]]) -> float:
    classes = sorted({t[0] for row in truths for t in row})
    aps = []
    for cls in classes:
        pairs = class_pairs(cls, predictions, truths)
        y_true = [p[0] for p in pairs]
        if all(y == 1 for y in y_true):
            raise AssertionError(
                "y_true is all 1s; this shouldn't happen and will result in undefined AP"
            )
        aps.append(average_precision_score(y_true, [p[1] for p in pairs]))
    return float(np.mean(aps)) if aps else 0.0


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission and answers must have the same length")
    if ID not in submission.columns:
        raise InvalidSubmissionError("Submission must have an 'Id' column")
    if PREDICTION not in submission.columns:
        raise InvalidSubmissionError("Submission must have a 'PredictionString' column")
    require(ID in answers.columns, "Answers must have an 'id' column")
    require(PREDICTION in answers.columns, "Answers must have a 'PredictionString' column")
    # Equal ids after sorting leave no duplicates (the answers' are distinct): no tie rule needed.
    submission = submission.sort_values(ID, kind="stable")
    answers = answers.sort_values(ID, kind="stable")
    if (submission[ID].to_numpy(dtype=object) != answers[ID].to_numpy(dtype=object)).any():
        raise InvalidSubmissionError("Submission and answers must have the same ids")
    predictions = [parse(p) for p in submission[PREDICTION]]
    truths = [parse(t) for t in answers[PREDICTION]]
    return mean_average_precision(predictions, truths) if predictions else 0.0
