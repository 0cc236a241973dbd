"""kuzushiji-recognition: F1 over character centre points matched to labelled boxes.

A submission has ``image_id, labels``, where ``labels`` is ``"<unicode> <x> <y>"`` repeated
(``U+306F 1231 3465 ...``), blank for a page with no characters; the answers (``test.csv``)
hold ``"<unicode> <x> <y> <width> <height>"`` boxes. On each page, truth boxes are taken in
their order, and each one takes the first still-unused prediction of the same character whose
point lies strictly inside it (``x_min < x < x_min + width``, the same for y): a true
positive; a box that takes none is a false negative, a prediction never taken a false
positive. The score is F1 over the counts summed across pages (0 when there are no
predictions, no truth, or no true positive). Upstream's (Kaggle's reference) rules, kept:
strictly inside, so a point on an edge misses; the first match, not the nearest; tokens are
split on single spaces (a double space makes an empty token: its float fails); a blank page
on either side only counts (a blank truth makes each prediction a false positive, a blank
prediction each box a false negative); coordinates are parsed as numpy parses text, so
``nan`` is accepted and matches nothing. Its own checks first: the answers' length, both
columns, the same ids after sorting, and each prediction's token count a multiple of 3 with
numbers in the x and y places. The gold file (``gold_submission.csv``) is each box's corner
plus one pixel, as upstream's ``prepare.py`` writes it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import InvalidSubmissionError

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
GOLD_SUBMISSION = "gold_submission.csv"
ID, LABELS = "image_id", "labels"


def check_format(prediction: object) -> None:
    """Upstream's check of one prediction string: whole triples, x and y as numbers."""
    if pd.isna(prediction):
        return
    tokens = prediction.split(" ")  # type: ignore[attr-defined]  # not text: fails, as upstream
    if len(tokens) % 3 != 0:
        raise InvalidSubmissionError(f"Malformed prediction string: {prediction}")
    for token in tokens[1::3] + tokens[2::3]:
        float(token)  # ValueError on anything else, as upstream's float()


def page_counts(prediction: object, truth: object) -> tuple[int, int, int]:
    """(true positives, false positives, false negatives) of one page."""
    if pd.isna(truth) and pd.isna(prediction):
        return 0, 0, 0
    if pd.isna(truth):
        return 0, len(prediction.split(" ")) // 3, 0  # type: ignore[attr-defined]
    if pd.isna(prediction):
        return 0, 0, len(truth.split(" ")) // 5  # type: ignore[attr-defined]
    boxes = truth.split(" ")  # type: ignore[attr-defined]
    if len(boxes) % 5 != 0:
        raise ValueError("Malformed solution string")
    points = prediction.split(" ")  # type: ignore[attr-defined]
    if len(points) % 3 != 0:
        raise ValueError("Malformed prediction string")
    box_labels = boxes[0::5]
    x_min = np.array(boxes[1::5]).astype(float)
    y_min = np.array(boxes[2::5]).astype(float)
    x_max = x_min + np.array(boxes[3::5]).astype(float)
    y_max = y_min + np.array(boxes[4::5]).astype(float)
    point_labels = np.array(points[0::3])
    x = np.array(points[1::3]).astype(float)
    y = np.array(points[2::3]).astype(float)
    unused = np.ones(len(point_labels), dtype=bool)
    tp = fn = 0
    for label, x0, x1, y0, y1 in zip(box_labels, x_min, x_max, y_min, y_max, strict=True):
        inside = (x0 < x) & (x1 > x) & (y0 < y) & (y1 > y) & (point_labels == label) & unused
        hit = np.flatnonzero(inside)
        if len(hit):
            tp += 1
            unused[hit[0]] = False
        else:
            fn += 1
    return tp, int(unused.sum()), fn


def f1(tp: int, fp: int, fn: int) -> float:
    if tp + fp == 0 or tp + fn == 0:
        return 0.0
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    if precision > 0 and recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            f"Submission has {len(submission)} rows, but expected {len(answers)} rows."
        )
    if not {ID, LABELS} <= set(submission.columns):
        raise InvalidSubmissionError("Submission must have columns 'image_id' and 'labels'.")
    # Sorting both sides pairs pages by id; ties need no rule, since equal ids after sorting
    # leave no duplicate (the answers' ids are distinct).
    submission = submission.sort_values(ID, kind="stable")
    answers = answers.sort_values(ID, kind="stable")
    submitted = submission[ID].to_numpy(dtype=object)
    if (submitted != answers[ID].to_numpy(dtype=object)).any():
        raise InvalidSubmissionError("Submission image_id codes don't match solution.")
    predictions = submission[LABELS].tolist()
    for prediction in predictions:
        check_format(prediction)
    counts = np.array(
        [page_counts(p, t) for p, t in zip(predictions, answers[LABELS].tolist(), strict=True)],
        dtype=np.int64,
    ).reshape(-1, 3)
    tp, fp, fn = (int(c) for c in counts.sum(axis=0))
    return f1(tp, fp, fn)
