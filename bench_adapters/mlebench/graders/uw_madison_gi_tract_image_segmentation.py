"""uw-madison-gi-tract-image-segmentation: 0.4 x mean Dice + 0.6 x (1 - mean 3D Hausdorff
distance) of the organ masks of MRI slices.

Rows are ``id, class, predicted``: one organ (large bowel, small bowel, stomach) of one slice
``case<N>_day<M>_slice_<K>``, its mask run-length encoded (``rlecodec``, pixels numbered down
each column, then across), blank for none. Dice is taken row by row, NaN when both masks are
empty, and averaged ignoring NaN. For the Hausdorff distance the rows are sorted by id, the
organs of each slice joined (logical OR) and each case-day's slices stacked into a volume;
the distance between the predicted and true volumes, in coordinates divided by the true
volume's shape and then by the unit cube's diagonal, is NaN when both are empty, 0 when they
are equal, 1 when one is empty or the prediction has more than ten times the true voxels, and
is averaged ignoring NaN (scipy's ``directed_hausdorff``, both ways).

Upstream's quirks, kept: rows are paired by position, with no sort and no id or length check,
so the Dice pairs row ``i`` of each frame and a frame with fewer rows shortens both (zip); each
submitted mask takes the height and width of the answers' row at its position; case-days are
paired in the order of their sorted ids, whatever those ids are; masks of one slice or one
case-day that differ in shape fail (numpy cannot join or stack them). The answers' sizes are
stored as floats. Upstream decodes every mask at once; here the Dice comes from the runs and
one case-day's volumes are built at a time, and each directed distance compares surface
voxels with a k-d tree rather than every voxel in scipy's early-stopping loop (the same
number, see ``directed``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy.spatial import cKDTree

from rlecodec import Runs, dice

from . import InvalidSubmissionError
from ._helpers import require
from ._masks import answer_runs, blank_as_empty, intersection, submission_runs

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
CHECK_NOTES = {
    "wrong-row-count": "upstream pairs rows by position and stops at the shorter frame, so a "
    "submission missing a row is scored"
}

DICE_WEIGHT = 0.4
HAUSDORFF_WEIGHT = 0.6
UNIT_CUBE_DIAGONAL = np.sqrt(3)

Day = list[list[int]]
"""One case-day: its slices in order, each the row positions of its masks."""


def case_days(ids: Sequence[Any], shapes: Sequence[tuple[int, int]]) -> list[Day]:
    """Rows grouped as upstream's ``group_masks_by_day``: sorted by id (stable), one slice per
    id, one case-day per id prefix before ``_slice_``, in order of first appearance; raises
    where upstream's join or stack of the masks would."""
    order = sorted(range(len(ids)), key=lambda row: ids[row])
    slices: dict[object, list[int]] = {}
    for row in order:
        slices.setdefault(ids[row], []).append(row)
    days: dict[str, Day] = {}
    for slice_id, rows in slices.items():
        if not isinstance(slice_id, str):
            raise TypeError(f"an id that is not text cannot be split: {slice_id!r}")
        if len({shapes[row] for row in rows}) > 1:
            raise ValueError(f"the masks of slice {slice_id} differ in shape")
        days.setdefault(slice_id.split("_slice_")[0], []).append(rows)
    for day, day_slices in days.items():
        if len({shapes[rows[0]] for rows in day_slices}) > 1:
            raise ValueError(f"the slices of {day} differ in shape and cannot be stacked")
    return list(days.values())


def volume(day: Day, runs: Sequence[Runs], shapes: Sequence[tuple[int, int]]) -> np.ndarray:
    """The case-day's ``slices x height x width`` volume (uint8), organs joined by OR."""
    height, width = shapes[day[0][0]]
    out = np.zeros((len(day), width * height), dtype=np.uint8)
    for k, rows in enumerate(day):
        for row in rows:
            for lo, hi in zip(runs[row].lo.tolist(), runs[row].hi.tolist(), strict=True):
                out[k, lo:hi] = 1
    return out.reshape(len(day), width, height).transpose(0, 2, 1)


def hausdorff(predicted: np.ndarray, true: np.ndarray) -> float:
    """Upstream's normalised symmetric Hausdorff distance of two volumes (see the docstring)."""
    predicted_sum, true_sum = predicted.sum(), true.sum()
    if predicted_sum == 0 and true_sum == 0:
        return math.nan
    if np.array_equal(predicted, true):
        return 0.0
    if predicted_sum == 0 or true_sum == 0 or predicted_sum > 10 * true_sum:
        return 1.0
    scale = np.array(true.shape)
    offset = np.zeros(3, dtype=np.int64)
    if predicted.shape == true.shape:  # only the box holding both matters
        box = cropped(predicted | true)
        offset = np.array([b.start for b in box])
        predicted, true = predicted[box], true[box]
    distance = max(
        directed(true, predicted, scale, offset), directed(predicted, true, scale, offset)
    )
    return float(distance / UNIT_CUBE_DIAGONAL)


def cropped(mask: np.ndarray) -> tuple[slice, ...]:
    """The smallest box holding every voxel of ``mask`` (which has one)."""
    box = []
    for axis in range(mask.ndim):
        present = np.flatnonzero(mask.any(axis=tuple(a for a in range(mask.ndim) if a != axis)))
        box.append(slice(int(present[0]), int(present[-1]) + 1))
    return tuple(box)


def directed(
    volume: np.ndarray, other: np.ndarray, scale: np.ndarray, offset: np.ndarray | None = None
) -> float:
    """scipy's ``directed_hausdorff`` of the voxels of ``volume`` to those of ``other``, their
    indices (plus ``offset``, where the volumes are cut from larger ones) divided by
    ``scale``: the farthest voxel from its nearest neighbour.

    The same number, found faster: a voxel inside ``other`` is at distance 0, and the voxel of
    ``other`` nearest to one outside it is on its surface (a neighbour towards the outside
    point would be nearer), so only those voxels are compared, with a k-d tree. scipy's loop
    stops early only once it has seen a far voxel, so it is quadratic on a nearly right
    prediction (hours for a case-day of 10^5 voxels a pixel off)."""
    if volume.shape == other.shape:
        outside = (volume != 0) & (other == 0)
        if not outside.any():
            return 0.0
        sources, targets = np.argwhere(outside), np.argwhere(surface(other != 0))
    else:  # a submission with another number of slices: compare every voxel
        sources, targets = np.argwhere(volume), np.argwhere(other)
    if offset is not None:
        sources, targets = sources + offset, targets + offset
    return float(cKDTree(targets / scale).query(sources / scale, k=1)[0].max())


def surface(mask: np.ndarray) -> np.ndarray:
    """The voxels of ``mask`` with a face neighbour (inside the array) outside ``mask``."""
    inner = mask.copy()
    for axis in range(mask.ndim):
        ahead = [slice(None)] * mask.ndim
        behind = [slice(None)] * mask.ndim
        ahead[axis], behind[axis] = slice(1, None), slice(None, -1)
        inner[tuple(behind)] &= mask[tuple(ahead)]
        inner[tuple(ahead)] &= mask[tuple(behind)]
    return mask & ~inner


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require("image_height" in answers.columns, "image_height column not found in answers")
    require("image_width" in answers.columns, "image_width column not found in answers")
    if not {"id", "class", "predicted"} <= set(submission.columns):
        raise InvalidSubmissionError("Submission must have columns: id, class, predicted")
    heights = answers["image_height"].astype(int).tolist()
    widths = answers["image_width"].astype(int).tolist()
    shapes = list(zip(heights, widths, strict=True))
    guesses = [
        submission_runs(cell, h * w)
        for cell, (h, w) in zip(blank_as_empty(submission["predicted"]), shapes, strict=False)
    ]
    truths = [
        answer_runs(cell, h * w)
        for cell, (h, w) in zip(blank_as_empty(answers["predicted"]), shapes, strict=True)
    ]
    guess_days = case_days(submission["id"].tolist()[: len(guesses)], shapes)
    true_days = case_days(answers["id"].tolist(), shapes)

    pairs = zip(guesses, truths, strict=False)  # the answers may have more rows: zip stops
    dice_mean = np.nanmean([dice(intersection(g, t), g.area, t.area, math.nan) for g, t in pairs])
    distances = [
        hausdorff(volume(g, guesses, shapes), volume(t, truths, shapes))
        for g, t in zip(guess_days, true_days, strict=False)
    ]
    distance_mean = np.nanmean(distances)
    return float(DICE_WEIGHT * dice_mean + HAUSDORFF_WEIGHT * (1 - distance_mean))
