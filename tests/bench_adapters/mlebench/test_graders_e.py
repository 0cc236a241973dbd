"""Batch E graders (run-length encoded masks) on small hand-built frames in upstream's prepared
schema (the generators are tested in ``test_synthetic_e.py``, the codec in
``tests/rlecodec``).

Each grader: a perfect submission, a constant one, invalid ones (``InvalidSubmissionError``
where upstream raises its own, any error where upstream crashes), and the upstream quirks its
docstring names. Upstream's own numbers on many more submissions are in the parity data
(``tests/bench_adapters/data/upstream_parity.jsonl``).
"""

from __future__ import annotations

import io
import math
import tracemalloc

import numpy as np
import pandas as pd
import pytest
from scipy.spatial.distance import directed_hausdorff
from sklearn.metrics import fbeta_score

from bench_adapters.mlebench.data import LOWER_IS_BETTER
from bench_adapters.mlebench.graders import InvalidSubmissionError, get_grader
from bench_adapters.mlebench.graders.uw_madison_gi_tract_image_segmentation import (
    directed,
    hausdorff,
)
from bench_adapters.scoring import run_grade_fn
from rlecodec import encode

CONTRAILS = "google-research-identify-contrails-reduce-global-warming"
HUBMAP = "hubmap-kidney-segmentation"
SALT = "tgs-salt-identification-challenge"
GUT = "uw-madison-gi-tract-image-segmentation"
INK = "vesuvius-challenge-ink-detection"
COMPETITIONS = [CONTRAILS, HUBMAP, SALT, GUT, INK]


def csv_roundtrip(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame as the harness reads it back from a submission file."""
    return pd.read_csv(io.StringIO(frame.to_csv(index=False)))


def grade(competition_id: str, submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    spec = get_grader(competition_id)
    assert spec is not None
    return spec.grade(csv_roundtrip(submission), csv_roundtrip(answers))


def verdict(competition_id: str, submission: pd.DataFrame, answers: pd.DataFrame) -> float | None:
    """What the harness records: the rounded score, or None for an invalid submission."""
    spec = get_grader(competition_id)
    assert spec is not None
    return run_grade_fn(spec.grade, csv_roundtrip(submission), csv_roundtrip(answers))


def test_every_mask_metric_is_higher_better() -> None:
    assert not set(COMPETITIONS) & LOWER_IS_BETTER


# --- contrails: global Dice, "-" for no contrail --------------------------------------------


def contrails_masks() -> list[np.ndarray]:
    masks = [np.zeros((4, 4), dtype=bool) for _ in range(3)]
    masks[0][1, :] = True  # 4 pixels
    masks[2][:, 2] = True  # 4 pixels; record 1 has no contrail
    return masks


CONTRAILS_ANSWERS = pd.DataFrame(
    {
        "record_id": [3000000000000000003, 1000000000000000001, 2000000000000000002],
        "encoded_pixels": [encode(m, empty="-") for m in contrails_masks()],
        "height": 4,
        "width": 4,
    }
)


def contrails_submission(cells: list[str]) -> pd.DataFrame:
    return CONTRAILS_ANSWERS[["record_id"]].assign(encoded_pixels=cells)


def test_contrails_perfect_constant_and_global_dice() -> None:
    answers = CONTRAILS_ANSWERS
    assert grade(CONTRAILS, answers.iloc[::-1], answers) == 1.0
    # Every record predicted as the first one's row (row 1): it finds record 0's 4 pixels and
    # pixel (1, 2) of record 2, and 12 are predicted: 2 * 5 / (12 + 8).
    row = answers["encoded_pixels"].iloc[0]
    assert grade(CONTRAILS, contrails_submission([row] * 3), answers) == pytest.approx(10 / 20)
    assert grade(CONTRAILS, contrails_submission(["-"] * 3), answers) == 0.0
    # Global, not per record: one pixel of record 2 found, one wrong in record 1.
    masks = contrails_masks()
    guess = [encode(masks[0]), "1 1", encode(masks[2])[:-1] + "1"]  # record 2: 1 of 4 pixels
    assert grade(CONTRAILS, contrails_submission(guess), answers) == pytest.approx(
        2 * 5 / (4 + 1 + 1 + 8)
    )
    empty = answers.assign(encoded_pixels="-")
    assert math.isnan(grade(CONTRAILS, contrails_submission(["-"] * 3), empty))


def test_contrails_empty_masks_and_extra_columns_as_upstream() -> None:
    answers = CONTRAILS_ANSWERS
    cells = list(answers["encoded_pixels"])
    spaces = contrails_submission([cells[0], " ", cells[2]])  # spaces: an empty mask
    assert grade(CONTRAILS, spaces, answers) == 1.0
    blank = contrails_submission([cells[0], "", cells[2]])  # read back as a missing cell
    with pytest.raises(InvalidSubmissionError, match="Expected a string"):
        grade(CONTRAILS, blank, answers)
    extra = answers.assign(height=1, width=99, other="x")  # the sample's columns are ignored
    assert grade(CONTRAILS, extra, answers) == 1.0


def test_contrails_rejects_as_upstream() -> None:
    answers = CONTRAILS_ANSWERS
    good = answers[["record_id", "encoded_pixels"]]
    cases = {
        "to have columns": good.drop(columns=["encoded_pixels"]),
        "rows": good.iloc[:-1],
        "same record_id": good.assign(record_id=[1, 2, 3]),
        "sorted": contrails_submission(["5 1 1 1", "-", "-"]),
        "Overlapping": contrails_submission(["1 3 2 1", "-", "-"]),
        "positive": contrails_submission(["0 1", "-", "-"]),
        "integer": contrails_submission(["1.0 2", "-", "-"]),
    }
    for message, submission in cases.items():
        with pytest.raises(InvalidSubmissionError, match=message):
            grade(CONTRAILS, submission, answers)
        assert verdict(CONTRAILS, submission, answers) is None
    # Runs past the last pixel are clipped; a repeated id fails the id check.
    assert grade(CONTRAILS, contrails_submission(["5 100", "-", "-"]), answers) > 0
    duplicated = good.assign(record_id=[*good["record_id"][:2], good["record_id"][0]])
    assert verdict(CONTRAILS, duplicated, answers) is None
    with pytest.raises(AssertionError):
        grade(CONTRAILS, good, answers.drop(columns=["width"]))


# --- hubmap: mean Dice per slide, counted from the runs ------------------------------------

HUBMAP_ANSWERS = pd.DataFrame(
    {
        "id": ["b2dc8411c", "0486052bb", "aaa6a05cc"],
        "encoding": ["1 4 9 2", "3 3", "5 5"],
        "width_pixels": [4, 3, 40_000],
        "height_pixels": [3, 4, 50_000],
    }
)


def hubmap_submission(cells: list[str]) -> pd.DataFrame:
    return HUBMAP_ANSWERS[["id"]].assign(predicted=cells)


def test_hubmap_perfect_constant_and_mean_dice() -> None:
    answers = HUBMAP_ANSWERS
    gold = answers[["id"]].assign(predicted=answers["encoding"])
    assert grade(HUBMAP, gold.iloc[::-1], answers) == 1.0
    assert grade(HUBMAP, hubmap_submission(["", "", ""]), answers) == 0.0  # the sample
    # Slide 0: 2 of 6 pixels found, 2 predicted; slide 1: 3 of 3 and 2 more; slide 2: none.
    guess = hubmap_submission(["2 2", "2 5", "100 3"])
    expected = (2 * 2 / (2 + 6) + 2 * 3 / (5 + 3) + 0) / 3
    assert grade(HUBMAP, guess, answers) == pytest.approx(expected)
    # A slide without glomeruli, predicted empty, scores 1 (answers held as text here: a
    # blank encoding in the answers file is missing, which upstream's decoder rejects).
    spec = get_grader(HUBMAP)
    assert spec is not None
    truth = answers.assign(encoding=["1 4 9 2", "3 3", ""])
    assert spec.grade(csv_roundtrip(hubmap_submission(["1 4 9 2", "3 3", ""])), truth) == 1.0
    assert spec.grade(csv_roundtrip(hubmap_submission(["1 4 9 2", "3 3", "1 1"])), truth) == 2 / 3


def test_hubmap_gigapixel_slides_are_graded_from_the_runs() -> None:
    """Two slides of 2 gigapixels: a mask would take 2 GB each; the runs take kilobytes."""
    side = 45_000
    runs = " ".join(f"{k * side + 100} 300" for k in range(0, 20_000, 7))
    answers = pd.DataFrame({"id": ["a", "b"], "encoding": [runs, runs]})
    answers = answers.assign(width_pixels=side, height_pixels=side)
    submission = answers[["id"]].assign(predicted=[runs, ""])
    tracemalloc.start()
    try:
        assert grade(HUBMAP, submission, answers) == 0.5
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50 * 2**20


def test_hubmap_rejects_as_upstream() -> None:
    answers = HUBMAP_ANSWERS
    good = answers[["id"]].assign(predicted=answers["encoding"])
    cases = {
        "'id' column": good.drop(columns=["id"]),
        "'predicted' column": good.rename(columns={"predicted": "encoding"}),
        "rows": good.iloc[:-1],
        "different id": good.assign(id=["b2dc8411c", "b2dc8411c", "aaa6a05cc"]),
        "sorted": hubmap_submission(["9 1 1 1", "", ""]),
        "integer": hubmap_submission(["-", "", ""]),  # only contrails reads "-" as empty
    }
    for message, submission in cases.items():
        with pytest.raises(InvalidSubmissionError, match=message):
            grade(HUBMAP, submission, answers)
        assert verdict(HUBMAP, submission, answers) is None
    numbers = hubmap_submission(["5", "6", "7"])  # read back as integers, not text
    assert verdict(HUBMAP, numbers, answers) is None


# --- tgs-salt: precision over IoU thresholds, histogram quirk --------------------------------


def salt_mask(rows: int = 0, columns: int = 0) -> np.ndarray:
    """A 101 x 101 mask with its top ``rows`` rows, or left ``columns`` columns, salt."""
    mask = np.zeros((101, 101), dtype=bool)
    mask[:rows] = True
    mask[:, :columns] = True
    return mask


SALT_MASKS = [salt_mask(), salt_mask(rows=61), salt_mask(rows=81), salt_mask(columns=10)]
SALT_IDS = ["d4a1c2f3b0", "0a1b2c3d4e", "9f8e7d6c5b", "5e5e5e5e5e"]
SALT_ANSWERS = pd.DataFrame({"id": SALT_IDS, "rle_mask": [encode(m) for m in SALT_MASKS]})


def salt_submission(masks: list[np.ndarray]) -> pd.DataFrame:
    return SALT_ANSWERS[["id"]].assign(rle_mask=[encode(m) for m in masks])


def test_salt_perfect_constant_and_thresholds() -> None:
    answers = SALT_ANSWERS
    assert grade(SALT, answers.iloc[::-1], answers) == 1.0
    # The sample's "1 1": 0 on the empty image (salt predicted), IoU near 0 elsewhere.
    assert grade(SALT, answers.assign(rle_mask="1 1"), answers) == 0.0
    # Image 3's 10 salt columns predicted as 8: IoU 0.8, above 6 of the 10 thresholds (0.8 is
    # not above np.arange's 0.8000000000000003); the others exact.
    guess = salt_submission([*SALT_MASKS[:3], salt_mask(columns=8)])
    assert grade(SALT, guess, answers) == pytest.approx((1 + 1 + 1 + 0.6) / 4)


def test_salt_histogram_quirk_scores_empty_predictions_on_mostly_salt_images() -> None:
    answers = SALT_ANSWERS
    # No salt predicted anywhere: 1 on the empty image; on the 61- and 81-row bodies (60% and
    # 80% salt) the empty prediction falls in the salt bin: IoU 0.604 (above 0.5 to 0.6)
    # and 0.802 (above 0.5 to 0.8); 0 on the 10% one.
    empty = salt_submission([salt_mask()] * 4)
    assert grade(SALT, empty, answers) == pytest.approx((1 + 0.3 + 0.7 + 0) / 4)
    # All salt predicted reads the same way: the constant mask is binned alike.
    full = salt_submission([salt_mask(), salt_mask(rows=101), salt_mask(rows=101), salt_mask()])
    assert grade(SALT, full, answers) == pytest.approx((1 + 0.3 + 0.7 + 0) / 4)


def test_salt_rejects_as_upstream() -> None:
    answers = SALT_ANSWERS
    cases = {
        "columns": answers.assign(extra="x"),
        "rows": answers.iloc[:-1],
        "same IDs": answers.assign(id=["d4a1c2f3b0"] * 4),
        "strings": answers.assign(id=[1, 2, 3, 4]),  # read back as numbers
        "sorted": answers.assign(rle_mask=["9 1 1 1", "", "", ""]),
        "Overlapping": answers.assign(rle_mask=["1 9 5 1", "", "", ""]),
    }
    for message, submission in cases.items():
        with pytest.raises(InvalidSubmissionError, match=message):
            grade(SALT, submission, answers)
        assert verdict(SALT, submission, answers) is None
    numbers = answers.assign(rle_mask=["5", "6", "7", "8"])  # single tokens read as integers
    with pytest.raises(InvalidSubmissionError, match="strings"):
        grade(SALT, numbers, answers)
    blank = answers.assign(rle_mask=["", "", "", ""])  # all blank: floats, then "" as upstream
    assert grade(SALT, blank, answers) == pytest.approx((1 + 0.3 + 0.7 + 0) / 4)


# --- uw-madison: 0.4 Dice + 0.6 (1 - 3D Hausdorff), rows paired by position ----------------

GUT_CLASSES = ["large_bowel", "small_bowel", "stomach"]


def gut_frame(cells: list[str]) -> pd.DataFrame:
    """Two case-days of two slices, three organs a slice: 4 x 4 slices, then 3 high x 5 wide."""
    ids = [f"case{c}_day{d}_slice_000{k}" for c, d in ((7, 1), (2, 30)) for k in (1, 2)]
    frame = pd.DataFrame({"id": np.repeat(ids, 3), "class": GUT_CLASSES * 4})
    return frame.assign(predicted=cells)


GUT_TRUTH = ["1 2", "", "", "", "", "16 1", "", "", "", "", "1 1", ""]
GUT_ANSWERS = gut_frame(GUT_TRUTH).assign(
    image_width=[4.0] * 6 + [5.0] * 6, image_height=[4.0] * 6 + [3.0] * 6
)


def test_gut_perfect_empty_and_known_distances() -> None:
    answers = GUT_ANSWERS
    assert grade(GUT, gut_frame(GUT_TRUTH), answers) == 1.0
    # Nothing predicted: Dice 0 on the 3 rows with an organ (NaN elsewhere), distance 1.
    assert grade(GUT, gut_frame([""] * 12), answers) == 0.0
    # Day 1's truth is voxels (0, 0, 0), (0, 1, 0) and (1, 3, 3); predicting only (0, 0, 0):
    # Dice 2/3 on row 0, 0 on row 5; the farthest true voxel is (1, 3, 3), at
    # |(1/2, 3/4, 3/4) - 0| / sqrt(3) from the prediction. Day 2 exact.
    guess = gut_frame(["1 1", *GUT_TRUTH[1:5], "", *GUT_TRUTH[6:]])
    far = math.sqrt(0.25 + 0.5625 + 0.5625) / math.sqrt(3)
    dice = (2 / 3 + 0 + 1) / 3
    assert grade(GUT, guess, answers) == pytest.approx(0.4 * dice + 0.6 * (1 - far / 2))


def test_gut_hausdorff_rules() -> None:
    true = np.zeros((2, 4, 4), dtype=np.uint8)
    true[0, 0, 0] = 1
    assert math.isnan(hausdorff(np.zeros_like(true), np.zeros_like(true)))
    assert hausdorff(true.copy(), true) == 0.0
    assert hausdorff(np.zeros_like(true), true) == hausdorff(true, np.zeros_like(true)) == 1.0
    crowd = np.zeros_like(true)
    crowd.reshape(-1)[:11] = 1  # more than ten times the true voxels
    assert hausdorff(crowd, true) == 1.0
    crowd.reshape(-1)[10] = 0  # ten times: measured; the farthest is (0, 1, 3)
    assert hausdorff(crowd, true) == pytest.approx(math.sqrt(0.0625 + 0.5625) / math.sqrt(3))


def test_gut_directed_distance_is_scipys() -> None:
    """Surface voxels and a k-d tree give scipy's number, on blobs, holes and volume edges."""
    rng = np.random.default_rng(4)
    for shape in ((1, 1, 1), (2, 5, 4), (6, 9, 7), (5, 12, 12)):
        for _ in range(15):
            a = rng.random(shape) < rng.uniform(0.05, 0.9)
            b = rng.random(shape) < rng.uniform(0.05, 0.9)
            if not a.any() or not b.any():
                continue
            scale = np.array(shape)
            expected = directed_hausdorff(np.argwhere(a) / scale, np.argwhere(b) / scale)[0]
            assert directed(a, b, scale) == pytest.approx(expected, abs=1e-15)
    a, b = np.ones((2, 3, 3), dtype=bool), np.ones((3, 3, 3), dtype=bool)  # other slice counts
    expected = directed_hausdorff(np.argwhere(b) / 3, np.argwhere(a) / 3)[0]
    assert directed(b, a, np.array([3, 3, 3])) == pytest.approx(expected)


def test_gut_pairs_rows_by_position_as_upstream() -> None:
    answers = GUT_ANSWERS
    # The last row dropped: zip stops at the shorter frame, and the rest is still perfect.
    assert grade(GUT, gut_frame(GUT_TRUTH).iloc[:-1], answers) == 1.0
    # Day 1's two slices swapped, ids with their cells: the Dice pairs rows by position (the
    # 4 rows with an organ there now meet an empty one: 0, 0, 0, 0 and day 2's 1), while the
    # volumes are grouped by id and still match.
    order = [3, 4, 5, 0, 1, 2, *range(6, 12)]
    swapped = gut_frame(GUT_TRUTH).iloc[order]
    assert grade(GUT, swapped, answers) == pytest.approx(0.4 * (1 / 5) + 0.6)
    moved = gut_frame(GUT_TRUTH).assign(predicted=[GUT_TRUTH[k] for k in order])
    assert grade(GUT, moved, answers) < 0.4 * (1 / 5) + 0.6  # the cells alone: volumes differ


def test_gut_rejects_as_upstream() -> None:
    answers = GUT_ANSWERS
    with pytest.raises(InvalidSubmissionError, match="id, class, predicted"):
        grade(GUT, gut_frame(GUT_TRUTH).drop(columns=["class"]), answers)
    bad = {
        "sorted": ["5 1 1 1", *GUT_TRUTH[1:]],
        "Overlapping": ["1 3 2 1", *GUT_TRUTH[1:]],
        "integer": ["-", *GUT_TRUTH[1:]],
    }
    for message, cells in bad.items():
        with pytest.raises(InvalidSubmissionError, match=message):
            grade(GUT, gut_frame(cells), answers)
    # Rows of a 4 x 4 day paired with 3 x 5 answers: a slice's masks differ in shape.
    mixed = gut_frame(GUT_TRUTH).iloc[[*range(5), 6, 5, *range(7, 12)]]
    assert verdict(GUT, mixed, answers) is None
    numbers = gut_frame(GUT_TRUTH).assign(id=range(12))  # ids read as numbers cannot be split
    assert verdict(GUT, numbers, answers) is None


# --- vesuvius: F0.5 over pixels, numbered across rows ----------------------------------------

INK_MASK = np.zeros((3, 5), dtype=bool)
INK_MASK[0, 1:4] = INK_MASK[2, 0] = True  # row-major pixels 2-4 and 11
INK_ANSWERS = pd.DataFrame({"Id": ["a"], "Predicted": ["2 3 11 1"], "width": 5, "height": 3})


def ink(cell: str) -> pd.DataFrame:
    return pd.DataFrame({"Id": ["a"], "Predicted": [cell]})


def test_ink_perfect_sample_and_f_half_as_scikit_learn() -> None:
    answers = INK_ANSWERS
    assert encode(INK_MASK, "row") == "2 3 11 1"
    assert grade(INK, ink("2 3 11 1"), answers) == 1.0
    assert grade(INK, ink("1 1 5 1"), answers) == 0.0  # the sample: pixels 1 and 5
    assert grade(INK, ink(" "), answers) == 0.0  # a space: nothing predicted
    rng = np.random.default_rng(3)
    for _ in range(20):
        guess = rng.random((3, 5)) < 0.4
        expected = fbeta_score(INK_MASK.ravel(), guess.ravel(), beta=0.5, zero_division=0.0)
        assert grade(INK, ink(encode(guess, "row") or " "), answers) == pytest.approx(expected)
    # The right mask numbered down the columns (the other competitions' order), "3 2 7 1 10 1",
    # is pixels 3, 4, 7 and 10 here: 2 of 4 right, F0.5 = 1.25 * 2 / (0.25 * 4 + 4).
    assert grade(INK, ink(encode(INK_MASK, "column")), answers) == pytest.approx(0.5)


def test_ink_rejects_as_upstream() -> None:
    answers = INK_ANSWERS
    cases = {
        "rows": pd.concat([ink("2 3"), ink("2 3")]),
        "indices": ink("2 3").assign(extra=1),
        "Expected columns": ink("2 3").rename(columns={"Id": "id"}),
        "string": ink(""),  # a blank cell is missing, not empty text
        "sorted": ink("11 1 2 3"),
    }
    for message, submission in cases.items():
        with pytest.raises(InvalidSubmissionError, match=message):
            grade(INK, submission, answers)
        assert verdict(INK, submission, answers) is None
    with pytest.raises(AssertionError, match="'Id'"):
        grade(INK, ink("2 3").assign(Id="b"), answers)
    assert verdict(INK, ink("2 3").assign(Id="b"), answers) is None
    assert verdict(INK, ink("5"), answers) is None  # one token: read back as an integer
