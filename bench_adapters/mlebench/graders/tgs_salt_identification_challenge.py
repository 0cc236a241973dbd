"""tgs-salt-identification-challenge: mean precision over IoU thresholds of 101 x 101 salt masks.

Rows are ``id, rle_mask`` (``rlecodec``, pixels numbered down each column, then across;
blank for no salt). Per image, with the true mask empty: 1 when the prediction is empty
too, else 0. Otherwise the whole mask is one object: it counts as found at each threshold
``t`` of ``np.arange(0.5, 1.0, 0.05)`` its IoU exceeds, and the image scores the share of
the ten thresholds found; the score is the mean over images.

Upstream's quirks, kept:

- the histogram quirk: upstream bins each mask with ``np.histogram2d(..., bins=2)``, whose
  range for a constant mask is ``[v - 0.5, v + 0.5]``, so every pixel of a constant mask falls
  in the upper ("salt") bin. A prediction with no salt, or all salt, is therefore read as all
  salt: on an image whose salt covers more than half of it, an empty prediction scores above 0
  (its IoU is the salt's share of the image);
- the columns must be exactly ``id`` and ``rle_mask``; every cell, once blanks are read as
  empty text, must be text: a column read as numbers fails (upstream's
  ``DataFrame.applymap(lambda x: isinstance(x, str))``, which pandas 3 removed: the check is
  made here cell by cell, as pandas 2.2 runs it);
- both frames are sorted by ``id`` and compared position by position.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rlecodec import Runs

from . import InvalidSubmissionError
from ._helpers import ids_differ, require
from ._masks import answer_runs, blank_as_empty, intersection, submission_runs
from ._sort import upstream_sorted

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"

SIDE = 101
THRESHOLDS = np.arange(0.5, 1.0, 0.05)
COLUMNS = ["id", "rle_mask"]


def all_text(frame: pd.DataFrame) -> bool:
    """Every cell text once missing cells are ``""`` (``fillna("").applymap(isinstance str)``)."""
    return all(isinstance(v, str) for column in frame for v in blank_as_empty(frame[column]))


def precision(truth: Runs, guess: Runs) -> float:
    """Upstream's ``iou_metric`` of one image, histogram quirk included."""
    size = truth.size
    if truth.area == 0:
        return 1.0 if guess.area == 0 else 0.0
    if guess.area in (0, size):  # a constant prediction lands whole in the salt bin
        overlap, predicted = truth.area, size
    else:
        overlap, predicted = intersection(truth, guess), guess.area
    iou = overlap / (truth.area + predicted - overlap)
    return float(np.mean(iou > THRESHOLDS))


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require(set(answers.columns) == set(COLUMNS), f"Expected answers to have columns {COLUMNS}")
    if set(submission.columns) != set(COLUMNS):
        raise InvalidSubmissionError(
            f"Expected submission to have columns {COLUMNS}, but got "
            f"{list(submission.columns)} instead!"
        )
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            f"Expected submission to have {len(answers)} rows, but got {len(submission)} instead!"
        )
    require(all_text(answers), "Expected all items in `answers` to be strings")
    if not all_text(submission):
        raise InvalidSubmissionError(
            "Expected all items in `submission` to be strings, but found non-string items!"
        )
    submission = upstream_sorted(submission, "id")
    answers = upstream_sorted(answers, "id")
    if ids_differ(submission["id"], answers["id"]):
        raise InvalidSubmissionError(
            "Expected submission to have the same IDs as answers, but got a different set of IDs!"
        )
    size = SIDE * SIDE
    guesses = [submission_runs(cell, size) for cell in blank_as_empty(submission["rle_mask"])]
    truths = [answer_runs(cell, size) for cell in blank_as_empty(answers["rle_mask"])]
    return float(np.mean([precision(t, g) for t, g in zip(truths, guesses, strict=True)]))
