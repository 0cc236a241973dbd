"""Graders of batch F (boxes and structured answers) on small hand-built frames in upstream's
prepared schema: a perfect submission, a constant guess and invalid submissions, each through
a CSV round trip as the harness reads them, and the matching rules upstream keeps (strict
insides, first or best matches, thresholds, classes taken from the truth)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bench_adapters.mlebench.graders import InvalidSubmissionError, get_grader


def csv_roundtrip(frame: pd.DataFrame) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(frame.to_csv(index=False)))


def grade(competition_id: str, submission: pd.DataFrame, answers: object) -> float:
    """The grade of ``submission`` read back from CSV; CSV answers too, others as they are."""
    spec = get_grader(competition_id)
    assert spec is not None, competition_id
    if isinstance(answers, pd.DataFrame) and spec.load_answers is None:
        answers = csv_roundtrip(answers)
    return spec.grade(csv_roundtrip(submission), answers)


# --- kuzushiji-recognition: F1 of points inside boxes ------------------------------------------

KUZUSHIJI = "kuzushiji-recognition"
PAGES = pd.DataFrame(
    {
        "image_id": ["100241706_00004_2", "umgy001-020", "hnsd006-026"],
        "labels": ["U+306F 10 10 20 30 U+304C 40 10 20 30", "U+3042 5 5 4 4", None],
    }
)


def test_kuzushiji_perfect_constant_and_blank_pages() -> None:
    gold = PAGES.assign(labels=["U+306F 11 11 U+304C 41 11", "U+3042 6 6", None])
    assert grade(KUZUSHIJI, gold.iloc[::-1], PAGES) == 1.0
    sample = PAGES.assign(labels="U+003F 1 1 U+FF2F 2 2")
    assert grade(KUZUSHIJI, sample, PAGES) == 0.0
    # one hit of three boxes, and the blank truth page's two guesses are false positives
    partial = PAGES.assign(labels=["U+306F 11 11", None, "U+3042 1 1"])
    tp, fp, fn = 1, 1, 2
    assert grade(KUZUSHIJI, partial, PAGES) == pytest.approx(2 * tp / (2 * tp + fp + fn))


def test_kuzushiji_points_must_be_strictly_inside_and_match_once() -> None:
    one = PAGES.iloc[:1]
    on_edge = one.assign(labels="U+306F 10 20 U+304C 50 40")  # x on the left edge, y on the bottom
    assert grade(KUZUSHIJI, on_edge, one) == 0.0
    twice = one.assign(labels="U+306F 12 12 U+306F 13 13 U+304C 41 11")  # one box, two points
    assert grade(KUZUSHIJI, twice, one) == pytest.approx(2 * 2 / (2 * 2 + 1))
    wrong_char = one.assign(labels="U+304C 11 11 U+306F 41 11")
    assert grade(KUZUSHIJI, wrong_char, one) == 0.0
    nan_point = one.assign(labels="U+306F nan 11 U+304C 41 11")  # parsed, matches nothing
    assert grade(KUZUSHIJI, nan_point, one) == 0.5  # one hit, one miss, one false positive


@pytest.mark.parametrize(
    ("labels", "error", "message"),
    [
        ("U+306F 11", InvalidSubmissionError, "Malformed prediction string: U+306F 11"),
        ("U+306F 11  11", InvalidSubmissionError, "Malformed prediction string"),
        ("U+306F eleven 11", ValueError, "could not convert string to float"),
        ("U+306F 11 11 U+304C 41 11 x", InvalidSubmissionError, "Malformed prediction"),
    ],
)
def test_kuzushiji_rejects_malformed_predictions(
    labels: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=re.escape(message)):
        grade(KUZUSHIJI, PAGES.assign(labels=[labels, "U+3042 6 6", None]), PAGES)


def test_kuzushiji_rejects_wrong_rows_columns_and_ids() -> None:
    gold = PAGES.assign(labels=["U+306F 11 11", "U+3042 6 6", None])
    cases = {
        "Submission has 2 rows, but expected 3 rows.": gold.iloc[:2],
        "Submission must have columns 'image_id' and 'labels'.": gold.rename(
            columns={"labels": "label"}
        ),
        "Submission image_id codes don't match solution.": gold.assign(
            image_id=["100241706_00004_2", "umgy001-020", "umgy001-020"]
        ),
    }
    for message, bad in cases.items():
        with pytest.raises(InvalidSubmissionError, match=f"^{re.escape(message)}$"):
            grade(KUZUSHIJI, bad, PAGES)


# --- siim-covid19-detection: VOC-style mAP at IoU 0.5 over the answers' classes ------------------

SIIM = "siim-covid19-detection"
STUDIES = pd.DataFrame(
    {
        "id": ["a1_study", "b2_study", "c3_image", "d4_image"],
        "PredictionString": [
            "typical 1 0 0 1 1",
            "negative 1 0 0 1 1",
            "opacity 1 0 0 3 1 opacity 1 10 10 20 20",
            "none 1 0 0 1 1",
        ],
    }
)


def siim(boxes: str, truth: str = "opacity 1 0 0 3 1 opacity 1 10 10 20 20") -> float:
    """The score when image c3 (whose truth is ``truth``) is predicted as ``boxes``."""
    answers = STUDIES.assign(
        PredictionString=[*STUDIES["PredictionString"][:2], truth, "none 1 0 0 1 1"]
    )
    submission = answers.assign(
        PredictionString=[*answers["PredictionString"][:2], boxes, "none 1 0 0 1 1"]
    )
    return grade(SIIM, submission.iloc[::-1], answers)


def test_siim_perfect_constant_and_partial() -> None:
    assert grade(SIIM, STUDIES.iloc[::-1], STUDIES) == 1.0
    sample = STUDIES.assign(PredictionString=["negative 1 0 0 1 1"] * 2 + ["none 1 0 0 1 1"] * 2)
    # negative and none: AP 1/2; missed truths are (1, 0) pairs, tied with the (0, 0) rows:
    # opacity's AP is 2/5 (two of five pairs), typical's 1/4
    assert grade(SIIM, sample, STUDIES) == pytest.approx((0.5 + 0.5 + 0.4 + 0.25) / 4)
    one_box = siim("opacity 0.9 10 10 20 20")
    assert 0.5 < one_box < 1.0
    assert siim("opacity 0.9 10 10 20 20 opacity 0.1 0 0 3 1") == 1.0


def test_siim_iou_must_exceed_one_half_and_takes_the_best_box() -> None:
    exactly_half = siim("opacity 0.9 1 0 4 1 opacity 0.8 10 10 20 20")  # IoU 2/4 with 0 0 3 1
    assert exactly_half == siim("opacity 0.9 100 0 104 1 opacity 0.8 10 10 20 20")  # a plain miss
    # one prediction overlapping two boxes takes the better one, leaving the other for the next
    truth = "opacity 1 0 0 10 10 opacity 1 2 0 12 10"
    assert siim("opacity 0.9 2 0 12 10 opacity 0.8 0 0 10 10", truth) == 1.0
    assert siim("opacity 0.9 0 0 10 10 pneumonia 1 0 0 10 10 opacity 0.8 2 0 12 10", truth) == 1.0


@pytest.mark.parametrize(
    ("boxes", "error"),
    [
        (None, AttributeError),  # blank: read as NaN, which has no strip
        ("opacity 0.9 10 10 20", IndexError),
        ("opacity high 10 10 20 20", InvalidSubmissionError),
        ("opacity nan 10 10 20 20", ValueError),  # scikit-learn refuses a NaN confidence
    ],
)
def test_siim_rejects_unparsable_predictions(boxes: str | None, error: type[Exception]) -> None:
    with pytest.raises(error):
        siim(boxes)  # type: ignore[arg-type]


def test_siim_rejects_rows_columns_ids_and_an_all_positive_class() -> None:
    cases = {
        "Submission and answers must have the same length": STUDIES.iloc[:3],
        "Submission must have an 'Id' column": STUDIES.rename(columns={"id": "Id"}),
        "Submission must have a 'PredictionString' column": STUDIES.drop(
            columns="PredictionString"
        ),
        "Submission and answers must have the same ids": STUDIES.assign(
            id=["a1_study", "a1_study", "c3_image", "d4_image"]
        ),
    }
    for message, bad in cases.items():
        with pytest.raises(InvalidSubmissionError, match=f"^{re.escape(message)}$"):
            grade(SIIM, bad, STUDIES)
    every_row = STUDIES.assign(PredictionString="opacity 1 0 0 3 1")
    with pytest.raises(AssertionError, match="y_true is all 1s"):  # upstream's assertion
        grade(SIIM, every_row, every_row)


# --- vinbigdata-chest-xray-abnormalities-detection: pycocotools AP at IoU 0.4 ------------------

VINBIG = "vinbigdata-chest-xray-abnormalities-detection"
FINDINGS = pd.DataFrame(
    {
        "image_id": ["aa", "aa", "bb", "cc"],
        "class_id": [3, 5, 3, 14],
        "class_name": ["Cardiomegaly", "ILD", "Cardiomegaly", "No finding"],
        "rad_id": ["R1", "R2", "R3", "R4"],
        "x_min": [10.0, 40.0, 10.0, 0.0],
        "y_min": [10.0, 40.0, 12.0, 0.0],
        "x_max": [30.0, 60.0, 30.0, 1.0],
        "y_max": [20.0, 50.0, 22.0, 1.0],
    }
)


def vinbig(bb: str, extra: str = "") -> float:
    """The score of the answers' own boxes, with image bb predicted as ``bb``."""
    submission = pd.DataFrame(
        {
            "image_id": ["aa", "bb", "cc"],
            "PredictionString": [f"3 1.0 10 10 30 20 5 1.0 40 40 60 50{extra}", bb, "14 1 0 0 1 1"],
        }
    )
    return grade(VINBIG, submission, FINDINGS)


def test_vinbig_keeps_cocos_reading_of_corners_as_width_and_height() -> None:
    exact = vinbig("3 0.9 10 12 30 22")
    assert 0.0 < exact < 1.0  # the first truth box (id 0) never counts as found: COCO's quirk
    # x_max 15 covers a quarter of the true box, but read as a width it overlaps half of it
    assert vinbig("3 0.9 10 12 15 22") == exact
    assert vinbig("3 0.9 10 12 6 22") < exact  # read as a width of 6: IoU 0.2, a miss
    assert vinbig("3 0.9 10 12 30 22 7 0.99 0 0 5 5") == exact  # a class the answers lack


def test_vinbig_only_the_set_of_ids_is_checked() -> None:
    submission = pd.DataFrame(
        {
            "image_id": ["bb", "aa", "cc", "bb"],
            "PredictionString": [
                "3 0.9 10 12 30 22",
                "3 1.0 10 10 30 20 5 1.0 40 40 60 50",
                "14 1 0 0 1 1",
                "3 0.99 100 100 130 120",  # a repeated id: its confident miss counts
            ],
        }
    )
    assert 0.0 < grade(VINBIG, submission, FINDINGS) < vinbig("3 0.9 10 12 30 22")


@pytest.mark.parametrize(
    ("bb", "error", "message"),
    [
        (None, AttributeError, "split"),  # blank: NaN
        ("3 0.9 10 12 30", ValueError, "cannot reshape"),
        ("3 0.9 10  12 30 22", ValueError, "could not convert string to float: ''"),
        ("nan 0.9 10 12 30 22", ValueError, "cannot convert float NaN to integer"),
    ],
)
def test_vinbig_rejects_unparsable_predictions(
    bb: str | None, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=re.escape(message)):
        vinbig(bb)  # type: ignore[arg-type]


def test_vinbig_rejects_missing_columns_and_other_ids() -> None:
    sample = pd.DataFrame({"image_id": ["aa", "bb", "cc"], "PredictionString": "14 1 0 0 1 1"})
    assert 0.0 < grade(VINBIG, sample, FINDINGS) < 0.5
    cases = {
        "Submission must have a `PredictionString` column": sample.drop(columns="PredictionString"),
        "Submission must have a `image_id` column": sample.rename(columns={"image_id": "id"}),
        "The set of image_ids in the submission must match": sample.iloc[:2],
    }
    for message, bad in cases.items():
        with pytest.raises(InvalidSubmissionError, match=re.escape(message)):
            grade(VINBIG, bad, FINDINGS)


# --- 3d-object-detection-for-autonomous-vehicles: per-sample 3D mAP over IoU 0.5-0.95 ---------

LYFT = "3d-object-detection-for-autonomous-vehicles"


def car(x: float, confidence: float = 1.0, yaw: float = 0.0, name: str = "car") -> str:
    """A 2 x 4 x 2 m box on the ground at (x, 0), 4 m long along x when ``yaw`` is 0."""
    return f"{confidence} {x} 0 1 2 4 2 {yaw} {name}"


def lyft(first: str, second: str = car(50), truth: str = f"{car(0)} {car(1)}") -> float:
    answers = pd.DataFrame(
        {
            "Id": ["a" * 64, "b" * 64],
            "PredictionString": [truth, f"{car(50)} {car(60, name='bus')}"],
        }
    )
    submission = answers.assign(PredictionString=[first, second]).iloc[::-1]
    return grade(LYFT, submission, answers)


def test_lyft_perfect_empty_and_half_turns() -> None:
    assert lyft(f"{car(0)} {car(1)}", f"{car(50)} {car(60, name='bus')}") == 1.0
    assert (
        lyft(f"{car(0, yaw=np.pi)} {car(1, 0.5, yaw=-np.pi)}", f"{car(50)} {car(60, name='bus')}")
        == 1.0
    )
    assert lyft(None, None) == 0.0  # blank: no predictions  # type: ignore[arg-type]
    # the bus is never predicted: an AP of 0 for its class in the second sample
    assert lyft(f"{car(0)} {car(1)}") == pytest.approx((1.0 + 0.5) / 2)


def test_lyft_greedy_matching_and_classes_from_the_truth() -> None:
    exact = lyft(f"{car(0, 0.9)} {car(1, 0.8)}")
    # the second prediction's best box was taken by the first: a false positive, although it
    # overlaps the other box by 0.74
    greedy = lyft(f"{car(0.5, 0.9)} {car(0.4, 0.8)}")
    assert greedy < lyft(f"{car(0.5, 0.9)} {car(1.0, 0.8)}") <= exact
    # a class the sample's truth lacks is ignored, even a box no check would pass
    assert lyft(f"{car(0, 0.9)} {car(1, 0.8)} 0.99 0 0 1 0 4 2 0 bus") == exact
    with pytest.raises(AssertionError):  # the same box as a car is checked
        lyft(f"{car(0, 0.9)} {car(1, 0.8)} 0.99 0 0 1 0 4 2 0 car")
    no_truth = pd.DataFrame({"Id": ["a" * 64], "PredictionString": [" "]})
    assert np.isnan(grade(LYFT, no_truth.assign(PredictionString=car(0)), no_truth))


@pytest.mark.parametrize(
    ("first", "error", "message"),
    [
        (car(0) + " car", InvalidSubmissionError, "9 tokens per object, but got 10 tokens"),
        (car(0).replace(" ", "  ", 1), InvalidSubmissionError, "but got 10 tokens"),
        (car(0, yaw=np.nan), ValueError, "Rotation may not be NaN!"),
        (car(0, yaw=np.inf), ValueError, "math domain error"),
        (car(np.nan), ValueError, "Translation may not be NaN!"),
        ("1.0 0 0 1 2 4 2 zero car", ValueError, "could not convert string to float"),
    ],
)
def test_lyft_rejects_malformed_predictions(
    first: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=re.escape(message)):
        lyft(first)


def test_lyft_rejects_rows_columns_and_ids() -> None:
    answers = pd.DataFrame({"Id": ["a" * 64, "b" * 64], "PredictionString": [car(0), car(5)]})
    cases = {
        "Submission and answers must have the same length": answers.iloc[:1],
        "Submission must have an 'Id' column": answers.rename(columns={"Id": "id"}),
        "Submission must have a 'PredictionString' column": answers[["Id"]],
        "Submission and answers must have the same ids": answers.assign(Id=["a" * 64] * 2),
    }
    for message, bad in cases.items():
        with pytest.raises(InvalidSubmissionError, match=f"^{re.escape(message)}$"):
            grade(LYFT, bad, answers)


# --- tensorflow2-question-answering: "micro-F1" (accuracy) of answered vs right ------------------

TF2 = "tensorflow2-question-answering"


def nq_record(
    example_id: str, long: int, shorts: list[tuple[int, int]], yes_no: str = "NONE"
) -> dict:
    """A Natural Questions record with the fields grading reads, and a page it does not."""
    return {
        "document_text": "<P> the capital of Kopo is Lima . </P> " * 50,
        "long_answer_candidates": [{"start_token": 0, "top_level": True, "end_token": 9}],
        "question_text": "what is the capital of kopo",
        "annotations": [
            {
                "yes_no_answer": yes_no,
                "long_answer": {
                    "start_token": long,
                    "candidate_index": 0,
                    "end_token": long + 9 if long >= 0 else -1,
                },
                "short_answers": [{"start_token": s, "end_token": e} for s, e in shorts],
                "annotation_id": 1,
            }
        ],
        "document_url": "https://en.wikipedia.org//w/index.php?title=Kopo",
        "example_id": example_id,
    }


RECORDS = [
    nq_record("-101", 0, [(6, 7)]),
    nq_record("202", -1, []),  # unanswerable
    nq_record("303", 0, [], yes_no="NO"),
]
GOLD = pd.DataFrame(
    {
        "example_id": ["-101_short", "-101_long", "202_short", "202_long", "303_short", "303_long"],
        "PredictionString": ["6:7", "0:9", None, None, "NO", "0:9"],
    }
)


def test_tf2_counts_true_negatives_and_reads_answers_both_ways(tmp_path: Path) -> None:
    from bench_adapters.mlebench.graders.tensorflow2_question_answering import load_answers

    path = tmp_path / "test.jsonl"
    lines = [json.dumps(r, separators=(",", ":")).replace("/", "\\/") for r in RECORDS[:2]]
    lines.append(json.dumps(RECORDS[2], indent=None))  # not compact: read whole
    path.write_text("\n".join(lines) + "\n")
    frame = load_answers(path)
    assert frame["example_id"].tolist() == ["-101", "202", "303"]
    assert frame["long"].tolist() == [((0, 9),), (), ((0, 9),)]
    assert frame["short"].tolist() == [((6, 7),), (), ("NO",)]
    for answers in (RECORDS, frame):
        assert grade(TF2, GOLD.iloc[::-1], answers) == 1.0
        blank = GOLD.assign(PredictionString=None)  # right only where there is no answer
        assert grade(TF2, blank, answers) == pytest.approx(2 / 6)
        wrong = GOLD.assign(PredictionString=["6:8", "0:9", "YES", None, "YES", "1:9"])
        assert grade(TF2, wrong, answers) == pytest.approx(2 / 6)


@pytest.mark.parametrize(
    ("prediction", "error", "message"),
    [
        ("6:", ValueError, "invalid literal for int()"),
        ("6.0:7", ValueError, "invalid literal for int()"),
        ("6:7:8", InvalidSubmissionError, "Invalid submission format: 6:7:8"),
        ("yes", InvalidSubmissionError, "Invalid submission format: yes"),
    ],
)
def test_tf2_rejects_malformed_answers(
    prediction: str, error: type[Exception], message: str
) -> None:
    bad = GOLD.assign(PredictionString=[prediction, *GOLD["PredictionString"][1:]])
    with pytest.raises(error, match=re.escape(message)):
        grade(TF2, bad, RECORDS)
    assert (
        grade(
            TF2, GOLD.assign(PredictionString=[" 6 : 7 ", *GOLD["PredictionString"][1:]]), RECORDS
        )
        == 1.0
    )


def test_tf2_rejects_rows_columns_ids_and_unreadable_answers() -> None:
    cases = {
        "Submission length 5 != 2 * answers length 3": GOLD.iloc[:5],
        "Submission requires 'example_id' and 'PredictionString' columns.": GOLD.rename(
            columns={"example_id": "id"}
        ),
        "Submission example_ids do not match expected_ids": GOLD.assign(
            example_id=[*GOLD["example_id"][:5], "303_medium"]
        ),
    }
    for message, bad in cases.items():
        with pytest.raises(InvalidSubmissionError, match=re.escape(message)):
            grade(TF2, bad, RECORDS)
    broken = [*RECORDS[:2], {**RECORDS[2], "annotations": []}]
    with pytest.raises(ValueError, match="IndexError"):  # upstream's annotations[0] fails
        grade(TF2, GOLD, broken)


# --- hms-harmful-brain-activity-classification: KL divergence, eeg_id repeated -----------------

HMS = "hms-harmful-brain-activity-classification"
VOTE_COLUMNS = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"]
VOTES = pd.DataFrame(
    [[7, 0, 3, 0, 0, 0, 0], [7, 0, 3, 0, 0, 0, 0], [9, 0, 0, 0, 1, 1, 2], [4, 1, 1, 1, 1, 1, 1]],
    columns=["eeg_id", *VOTE_COLUMNS],
).assign(expert_consensus=["LPD", "LPD", "LRDA", "Seizure"])


def shares(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[["eeg_id"]].join(frame[VOTE_COLUMNS].div(frame[VOTE_COLUMNS].sum(axis=1), axis=0))


def test_hms_kl_divergence_perfect_uniform_and_blank_cells() -> None:
    from bench_adapters.mlebench.data import LOWER_IS_BETTER

    assert HMS in LOWER_IS_BETTER
    gold = shares(VOTES)
    assert grade(HMS, gold.iloc[::-1], VOTES) == pytest.approx(
        0, abs=1e-14
    )  # 1 clipped to 1 - 1e-15
    uniform = gold.assign(**{c: 1 / 6 for c in VOTE_COLUMNS})
    y = gold[VOTE_COLUMNS].to_numpy()
    expected = np.mean([sum(v * np.log(v * 6) for v in row if v) for row in y])
    assert grade(HMS, uniform, VOTES) == pytest.approx(expected)
    # a blank cell is skipped by the sum check and adds no loss
    partly = uniform.copy()
    partly.loc[3, "seizure_vote"] = np.nan
    partly.loc[3, "lpd_vote"] = 2 / 6
    assert grade(HMS, partly, VOTES) < grade(HMS, uniform, VOTES)


def test_hms_pairs_repeated_ids_in_file_order() -> None:
    from bench_adapters.mlebench.graders.hms_harmful_brain_activity_classification import (
        order_decides,
    )

    gold = shares(VOTES)
    varied = gold.copy()
    varied.loc[0, VOTE_COLUMNS] = [0.5, 0, 0.5, 0, 0, 0]  # eeg 7's two rows now differ
    assert not order_decides(varied, VOTES)  # its answer rows are the same: any pairing
    assert grade(HMS, varied, VOTES) == grade(HMS, varied.iloc[[1, 0, 2, 3]], VOTES)
    crossed = varied.assign(eeg_id=[7, 9, 9, 4])  # the same set of ids, paired across them
    assert order_decides(crossed, VOTES)
    assert grade(HMS, crossed, VOTES) != grade(HMS, crossed.iloc[[0, 2, 1, 3]], VOTES)


def test_hms_rejects_columns_rows_sums_ids_and_the_metrics_checks() -> None:
    gold = shares(VOTES)
    cases = {
        "Submission must contain eeg_id column": gold.drop(columns="eeg_id"),
        "Submission must contain all target columns": gold.drop(columns="other_vote"),
        "Submission and answers must have the same length": gold.iloc[:3],
        "Submission probabilities must add to 1 for each row": gold.assign(other_vote=0.1),
        "Submission and answers must have the same IDs": gold.assign(eeg_id=[7, 7, 9, 5]),
    }
    for message, bad in cases.items():
        with pytest.raises(InvalidSubmissionError, match=re.escape(message)):
            grade(HMS, bad, VOTES)
    with pytest.raises(ValueError, match="no greater than one"):  # extra columns are checked
        grade(HMS, gold.assign(patient_id=20000), VOTES)
    with pytest.raises(ValueError, match="must be numeric"):
        grade(HMS, gold.assign(flag=True), VOTES)
    with pytest.raises(TypeError):
        grade(HMS, gold.assign(gpd_vote=["a", "b", "c", "d"]), VOTES)
