"""3d-object-detection-for-autonomous-vehicles: 3D mAP per sample over IoU 0.5 to 0.95,
averaged over samples (the Lyft challenge's ``mAP_evaluation``, per sample, as upstream runs it).

Rows are lidar samples (``Id``); ``PredictionString`` is ``"<confidence> <x> <y> <z> <width>
<length> <height> <yaw> <class>"`` repeated, blank for none. The answers (``test.csv``) are in
the same form, every confidence "1.0" (upstream inserts it into Kaggle's ``train.csv``). Both
frames are sorted on ``Id`` and must agree id by id. For each sample, the classes are those of
its truth; for each IoU threshold (0.5, 0.55, ..., 0.95) and class, the class's predictions,
most confident first, each take the truth box they overlap most if that IoU is above the
threshold (strictly) and the box is still free, else count as false positives (a taken best box
is not replaced by the next best: the reference's greedy rule); the class's AP is the area
under the precision envelope (recall from 0 to 1), 0 for a class with no prediction. A
sample's value at a threshold is the mean over its classes; the score is the mean over every
sample and threshold. IoUs are 3D, of upright boxes turned by their yaw (``_boxes3d``: shapely
footprints, pyquaternion rotations, as the reference). Every sample and class is scored at
once rather than one by one (upstream: half an hour for the 4,536 test samples, with every
box rebuilt for each threshold); sums of APs may differ from the reference's in the last
bits, never at 5 decimals.

Upstream's quirks, kept: a prediction of a class the sample's truth lacks is ignored, and is
never checked (a zero size or NaN centre there is accepted), while one of a truth class with a
NaN centre, size or yaw, or a size of 0 or less, fails the reference's checks (an error:
invalid); an infinite yaw fails building its quaternion; a sample with no truth has no classes,
so its mean is NaN and so is the score; tokens are split on single spaces (a double space
makes the count wrong: ``InvalidSubmissionError``, or an empty number: an error); a blank cell
is an empty prediction, but a cell that is not text fails (an error).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from . import InvalidSubmissionError
from ._boxes3d import Boxes, pair_ious, rotation
from ._helpers import require

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
ID, PREDICTION = "Id", "PredictionString"
TOKENS = 9
IOU_THRESHOLDS = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95]


@dataclass
class Objects:
    """Every object of one side, in reading order: its row, class, confidence and box."""

    row: np.ndarray
    name: np.ndarray
    score: list[float]
    boxes: Boxes


def parse(cells: list[object]) -> Objects:
    """Upstream's ``parse_row`` of each cell (NaN read as blank)."""
    rows, names, scores = [], [], []
    values: list[list[float]] = []
    quaternions, cos, sin = [], [], []
    for r, cell in enumerate(cells):
        text: Any = "" if cell is None or (isinstance(cell, float) and np.isnan(cell)) else cell
        if text.strip() == "":  # not text (a number): fails, as upstream
            continue
        tokens = text.split(" ")
        if len(tokens) % TOKENS != 0:
            raise InvalidSubmissionError(
                f"Prediction string must have {TOKENS} tokens per object, but got "
                f"{len(tokens)} tokens"
            )
        for i in range(0, len(tokens), TOKENS):
            part = tokens[i : i + TOKENS]
            score = float(part[0])
            numbers = [float(t) for t in part[1:7]]
            quaternion, c, s = rotation(float(part[7]))
            rows.append(r)
            names.append(part[8])
            scores.append(score)
            values.append(numbers)
            quaternions.append(quaternion)
            cos.append(c)
            sin.append(s)
    table = np.array(values, dtype=float).reshape(-1, 6)
    boxes = Boxes(
        x=table[:, 0],
        y=table[:, 1],
        z=table[:, 2],
        width=table[:, 3],
        length=table[:, 4],
        height=table[:, 5],
        rotation=np.array(quaternions, dtype=float).reshape(-1, 4),
        cos=np.array(cos, dtype=float),
        sin=np.array(sin, dtype=float),
    )
    return Objects(np.array(rows, dtype=np.int64), np.array(names, dtype=object), scores, boxes)


def _scoring_order(groups: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Positions by group, then most confident first, ties (and NaN, as Python's ``sorted``
    places it) in the reference's order: its stable ``sorted(..., reverse=True)``."""
    order = np.lexsort((np.arange(len(scores)), -scores, groups))
    for g in np.unique(groups[np.isnan(scores)]):
        at = np.flatnonzero(groups[order] == g)
        members = np.sort(order[at])  # the reference's list: in reading order
        order[at] = sorted(members, key=lambda k: scores[k], reverse=True)
    return order


def _pairs(found_groups: np.ndarray, truth_groups: np.ndarray) -> tuple[np.ndarray, ...]:
    """Every (prediction, truth box) of the same group, truth boxes in their order: the
    prediction and box indices, and where each prediction's pairs start."""
    by_group = np.argsort(truth_groups, kind="stable")
    low = np.searchsorted(truth_groups[by_group], found_groups, side="left")
    high = np.searchsorted(truth_groups[by_group], found_groups, side="right")
    counts = high - low
    starts = np.cumsum(counts) - counts
    i = np.repeat(np.arange(len(found_groups)), counts)
    j = by_group[np.repeat(low, counts) + np.arange(counts.sum()) - np.repeat(starts, counts)]
    return i, j, starts


def _average_precisions(
    group: np.ndarray, best: np.ndarray, box: np.ndarray, n_truth: np.ndarray, threshold: float
) -> np.ndarray:
    """Each group's AP at one threshold; predictions in scoring order, with their best IoU
    and that box (a box counts once: for the first prediction whose best it is)."""
    candidate = np.flatnonzero(best > threshold)
    _, first = np.unique(box[candidate], return_index=True)
    tp = np.zeros(len(best))
    tp[candidate[first]] = 1.0
    starts = np.flatnonzero(np.diff(group, prepend=-1))
    sizes = np.diff(np.append(starts, len(group)))
    seen = np.cumsum(tp)
    seen -= np.repeat(seen[starts] - tp[starts], sizes)  # true positives so far, per group
    rank = (np.arange(len(group)) + 1 - np.repeat(starts, sizes)).astype(float)
    recall = seen / n_truth[group].astype(float)
    precision = seen / np.maximum(rank, np.finfo(np.float64).eps)  # tp / (tp + fp)
    envelope = pd.Series(precision[::-1]).groupby(group[::-1]).cummax().to_numpy()[::-1]
    previous = np.concatenate(([0.0], recall[:-1]))
    previous[starts] = 0.0
    terms = np.where(recall != previous, (recall - previous) * envelope, 0.0)
    return np.bincount(group, weights=terms, minlength=int(group.max(initial=-1)) + 1)


def _best_boxes(
    iou: np.ndarray, box: np.ndarray, starts: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per prediction (its pairs from ``starts`` on), the best IoU (NaN if any is: ``np.max``)
    and the first box with it (``np.argmax``; any box where the best is NaN: it never counts)."""
    if not len(iou):
        return np.zeros(0), np.zeros(0, np.int64)
    best = np.maximum.reduceat(iou, starts)
    repeated = np.repeat(best, np.diff(np.append(starts, len(iou))))
    hit = (iou == repeated) | np.isnan(repeated)
    first = np.minimum.reduceat(np.where(hit, np.arange(len(iou)), len(iou)), starts)
    return best, box[first]


def mean_average_precision(found: Objects, truth: Objects, n_rows: int) -> float:
    """The mean over samples and thresholds of each sample's mean AP over its truth classes."""
    names, codes = np.unique(np.concatenate([found.name, truth.name]), return_inverse=True)
    found_group = found.row * len(names) + codes[: len(found.row)]
    truth_group = truth.row * len(names) + codes[len(found.row) :]
    classes, truth_class = np.unique(truth_group, return_inverse=True)  # (sample, class)s
    scored = np.flatnonzero(np.isin(found_group, classes))
    checked = np.flatnonzero(np.isin(truth_group, found_group[scored]))
    truth.boxes.take(checked).check()  # the reference checks what it compares, only that
    found.boxes.take(scored).check()

    group = np.searchsorted(classes, found_group[scored])  # each prediction's (sample, class)
    order = _scoring_order(group, np.array(found.score, dtype=float)[scored])
    scored, group = scored[order], group[order]
    i, j, starts = _pairs(found_group[scored], truth_group)
    iou = pair_ious(found.boxes, truth.boxes, scored[i], j)
    best, box = _best_boxes(iou, j, starts)

    n_truth = np.bincount(truth_class, minlength=len(classes))
    sample_of_class = classes // len(names)
    n_classes = np.bincount(sample_of_class, minlength=n_rows).astype(float)
    maps = np.zeros((n_rows, len(IOU_THRESHOLDS)))
    for t, threshold in enumerate(IOU_THRESHOLDS):
        aps = np.zeros(len(classes))
        if len(group):
            found_aps = _average_precisions(group, best, box, n_truth, threshold)
            aps[: len(found_aps)] = found_aps
        with np.errstate(invalid="ignore"):  # a sample with no truth: no classes, NaN
            maps[:, t] = np.bincount(sample_of_class, weights=aps, minlength=n_rows) / n_classes
    return float(np.mean(maps))


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission and answers must have the same length")
    if ID not in submission.columns:
        raise InvalidSubmissionError("Submission must have an 'Id' column")
    if PREDICTION not in submission.columns:
        raise InvalidSubmissionError("Submission must have a 'PredictionString' column")
    require(ID in answers.columns, "Answers must have an 'Id' column")
    require(PREDICTION in answers.columns, "Answers must have a 'PredictionString' column")
    # Equal ids after sorting leave no duplicates (the answers' are distinct): no tie rule needed.
    submission = submission.sort_values(ID, kind="stable")
    answers = answers.sort_values(ID, kind="stable")
    ids = submission[ID].to_numpy(dtype=object)
    if (ids != answers[ID].to_numpy(dtype=object)).any():
        raise InvalidSubmissionError("Submission and answers must have the same ids")
    found = parse(submission[PREDICTION].tolist())
    truth = parse(answers[PREDICTION].tolist())
    return mean_average_precision(found, truth, len(ids))
