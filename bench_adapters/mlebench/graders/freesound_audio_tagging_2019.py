"""freesound-audio-tagging-2019: label-weighted label-ranking average precision (lwlrap).

The submission is ``fname`` then the 80 class columns in the answers' fixed order. Each clip
adds, for each of its true labels, the share of labels ranked at or above that label which are
true (ties count as ranked above, scikit-learn's ``label_ranking_average_precision_score``);
clips weigh by their number of labels and clips without labels are skipped. Upstream's quirks,
kept: a wrong number of columns fails comparing the column names (a ``ValueError``, invalid);
non-numeric cells are an ``InvalidSubmissionError``, NaN or infinite ones a scikit-learn
``ValueError``; columns that are all booleans fail on negation (a ``TypeError``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.utils import check_array

from . import InvalidSubmissionError
from ._helpers import ids_differ, require

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
CLASSES = [
    "Accelerating_and_revving_and_vroom", "Accordion", "Acoustic_guitar", "Applause", "Bark",
    "Bass_drum", "Bass_guitar", "Bathtub_(filling_or_washing)", "Bicycle_bell",
    "Burping_and_eructation", "Bus", "Buzz", "Car_passing_by", "Cheering",
    "Chewing_and_mastication", "Child_speech_and_kid_speaking", "Chink_and_clink",
    "Chirp_and_tweet", "Church_bell", "Clapping", "Computer_keyboard", "Crackle", "Cricket",
    "Crowd", "Cupboard_open_or_close", "Cutlery_and_silverware", "Dishes_and_pots_and_pans",
    "Drawer_open_or_close", "Drip", "Electric_guitar", "Fart", "Female_singing",
    "Female_speech_and_woman_speaking", "Fill_(with_liquid)", "Finger_snapping", "Frying_(food)",
    "Gasp", "Glockenspiel", "Gong", "Gurgling", "Harmonica", "Hi-hat", "Hiss", "Keys_jangling",
    "Knock", "Male_singing", "Male_speech_and_man_speaking", "Marimba_and_xylophone",
    "Mechanical_fan", "Meow", "Microwave_oven", "Motorcycle", "Printer", "Purr",
    "Race_car_and_auto_racing", "Raindrop", "Run", "Scissors", "Screaming", "Shatter", "Sigh",
    "Sink_(filling_or_washing)", "Skateboard", "Slam", "Sneeze", "Squeak", "Stream", "Strum",
    "Tap", "Tick-tock", "Toilet_flush", "Traffic_noise_and_roadway_noise",
    "Trickle_and_dribble", "Walk_and_footsteps", "Water_tap_and_faucet", "Waves_and_surf",
    "Whispering", "Writing", "Yell", "Zipper_(clothing)",
]  # fmt: skip
"""The 80 labels of FSDKaggle2019, in the submission's column order."""


def lwlrap(truth: np.ndarray, scores: np.ndarray, chunk: int = 1024) -> float:
    """Label-weighted LRAP of a 0/1 ``truth`` matrix and a ``scores`` matrix of one shape."""
    relevant = truth > 0
    weights = relevant.sum(axis=1)
    keep = weights > 0
    relevant, weights = relevant[keep], weights[keep]
    scores = check_array(scores[keep], ensure_2d=False)
    negated = -scores  # as scikit-learn ranks; booleans fail here as they do there
    total = 0.0
    for start in range(0, len(negated), chunk):
        s, r = negated[start : start + chunk], relevant[start : start + chunk]
        at_or_above = s[:, :, None] <= s[:, None, :]  # [i, j, k]: label j ranks at or above k
        rank = at_or_above.sum(axis=1)
        hits = (at_or_above & r[:, :, None]).sum(axis=1)
        precision = np.where(r, hits / rank, 0.0).sum(axis=1) / r.sum(axis=1)
        degenerate = r.all(axis=1)  # every label true: scikit-learn scores the clip 1
        total += float(np.where(degenerate, 1.0, precision) @ r.sum(axis=1))
    return total / float(weights.sum())


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission and answers must have the same length")
    if submission.columns[0] != "fname":
        raise InvalidSubmissionError("Submission must have an 'fname' column")
    names = submission.columns[1:]
    if len(names) != len(CLASSES):  # upstream compares the Index with the list: pandas raises
        raise ValueError(f"Shapes must match: {len(names)} label columns, {len(CLASSES)} expected")
    if not (names == CLASSES).all():
        raise InvalidSubmissionError("Submission classes do not match expected classes")
    require(answers.columns[0] == "fname", "Answers must have an 'fname' column")
    require(
        len(answers.columns) == len(CLASSES) + 1 and (answers.columns[1:] == CLASSES).all(),
        "Answers classes do not match expected classes",
    )
    submission = submission.sort_values("fname").reset_index(drop=True)
    answers = answers.sort_values("fname").reset_index(drop=True)
    if ids_differ(submission["fname"], answers["fname"]):
        raise InvalidSubmissionError("Submission and answers must have the same ids")
    try:
        scores = submission[CLASSES].apply(pd.to_numeric)
    except (ValueError, TypeError) as e:
        raise InvalidSubmissionError(f"Error converting submission values to float: {e}") from e
    truth = answers[CLASSES].apply(pd.to_numeric).to_numpy()
    return lwlrap(truth, scores.to_numpy())
