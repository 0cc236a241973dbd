"""Batch C graders (text metrics: mean Levenshtein, word-set Jaccard, Kendall tau) on small
hand-built frames in upstream's prepared schema: a perfect submission, a constant guess,
invalid submissions, and each upstream quirk the grader keeps.

Every submission goes through a CSV round trip, as the harness reads it, so missing cells and
dtypes are the ones a real file gives.
"""

from __future__ import annotations

import io
import math

import numpy as np
import pandas as pd
import pytest
from rapidfuzz.distance import Levenshtein

from bench_adapters.mlebench.data import LOWER_IS_BETTER
from bench_adapters.mlebench.graders import InvalidSubmissionError, get_grader
from bench_adapters.mlebench.graders._text import (
    column_text,
    jaccard_scores,
    mean_levenshtein,
    pairing,
    sorted_positions,
    text_chunks,
)
from bench_adapters.scoring import run_grade_fn


def csv_roundtrip(frame: pd.DataFrame) -> pd.DataFrame:
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


# --- shared text metrics --------------------------------------------------------------------


def test_levenshtein_counts_code_point_edits_across_chunks() -> None:
    truth = ["kitten", "flaw", "", "naïve 𝄞", "same"] * 3
    guess = ["sitting", "lawn", "abc", "naive", "same"] * 3
    score = mean_levenshtein(
        text_chunks(pd.Series(truth), "as_read", chunk=4),
        text_chunks(pd.Series(guess), "as_read", chunk=4),
        len(truth),
    )
    assert isinstance(score, np.float64)
    assert score == pytest.approx((3 + 2 + 3 + 3 + 0) / 5)


def test_pairing_matches_rows_by_sorted_id() -> None:
    answers = pd.Series(["c", "a", "b", "d"])  # ids of the answers' rows, file order
    submission = pd.Series(["b", "d", "c", "a"])
    rows = pairing(sorted_positions(answers), sorted_positions(submission))
    assert submission.iloc[rows].tolist() == answers.tolist()
    chunks = list(text_chunks(submission.str.upper(), "as_read", rows, chunk=3))
    assert chunks == [["C", "A", "B"], ["D"]]


@pytest.mark.parametrize(
    ("conversion", "expected"),
    [
        ("astype_str", ["a", "nan", "1.5", "True"]),
        ("fillna_astype_str", ["a", "", "1.5", "True"]),
    ],
)
def test_column_text_converts_as_upstream(conversion: str, expected: list[str]) -> None:
    assert column_text(["a", float("nan"), 1.5, True], conversion) == expected  # type: ignore[arg-type]


def test_column_text_refuses_what_upstream_fails_on() -> None:
    assert column_text(["a", float("nan")], "fillna") == ["a", ""]
    with pytest.raises(TypeError):
        column_text(["a", float("nan")], "as_read")  # a missing sentence reaches the distance
    for conversion in ("as_read", "fillna"):
        with pytest.raises(TypeError):
            column_text(["a", 3], conversion)  # type: ignore[arg-type]


def test_jaccard_both_empty_rule() -> None:
    truth, guess = ["A b c", "", "x"], ["a B", "", "y z"]
    assert jaccard_scores(truth, guess, "zero").tolist() == [2 / 3, 0.0, 0.0]
    with pytest.raises(ZeroDivisionError):
        jaccard_scores(truth, guess, "fail")


# --- billion-word-imputation ----------------------------------------------------------------

BILLION = "billion-word-imputation"
SENTENCES = pd.DataFrame(
    {
        "id": [0, 1, 2, 3],
        "sentence": [
            "the team won the game .",
            '" we lost , " he said .',
            "prices rose in March .",
            "it rained .",
        ],
    }
)


def test_billion_word_perfect_missing_word_and_direction() -> None:
    assert BILLION in LOWER_IS_BETTER
    assert grade(BILLION, SENTENCES.iloc[::-1], SENTENCES) == 0.0
    missing = SENTENCES.assign(
        sentence=["the team the game .", '" we , " he said .', "prices in March .", "it ."]
    )
    # each sentence lost a word and the space before it
    assert grade(BILLION, missing, SENTENCES) == pytest.approx((4 + 5 + 5 + 7) / 4)


@pytest.mark.parametrize(
    ("submission", "message"),
    [
        (SENTENCES.drop(columns="sentence"), "Missing sentence column in submission"),
        (SENTENCES.rename(columns={"id": "Id"}), "Missing id column in submission"),
        (SENTENCES.iloc[:3], "different lengths: 3 vs 4"),
        (SENTENCES.assign(id=[0, 1, 2, 2]), "same IDs"),
        (SENTENCES.assign(id=[0, 1, 2, 9]), "same IDs"),
        (SENTENCES.assign(sentence=["a", "", "b", "c"]), "must be text"),  # blank -> NaN
        (SENTENCES.assign(sentence=[1, 2, 3, 4]), "must be text"),  # read as numbers
    ],
)
def test_billion_word_rejects(submission: pd.DataFrame, message: str) -> None:
    with pytest.raises(InvalidSubmissionError, match=message):
        grade(BILLION, submission, SENTENCES)
    assert verdict(BILLION, submission, SENTENCES) is None


# --- bms-molecular-translation --------------------------------------------------------------

BMS = "bms-molecular-translation"
WATER = "InChI=1S/H2O/h1H2"
MOLECULES = pd.DataFrame(
    {
        "image_id": ["000011a64c74", "00d4a5a0c0f5", "0b1c2d3e4f5a"],
        "InChI": [
            "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3",
            "InChI=1S/CH4/h1H4",
            "InChI=1S/C3H8/c1-3-2/h3H2,1-2H3",
        ],
    }
)


def test_bms_perfect_water_and_direction() -> None:
    assert BMS in LOWER_IS_BETTER
    assert grade(BMS, MOLECULES.iloc[[2, 0, 1]], MOLECULES) == 0.0
    water = MOLECULES.assign(InChI=WATER)
    expected = np.mean([Levenshtein.distance(t, WATER) for t in MOLECULES["InChI"]])
    assert grade(BMS, water, MOLECULES) == pytest.approx(expected)


def test_bms_scores_a_blank_prediction_as_the_text_nan() -> None:
    """Upstream's ``astype(str)`` under pandas 2: a blank cell is "nan", not an error."""
    blank = MOLECULES.assign(InChI=[MOLECULES["InChI"][0], None, MOLECULES["InChI"][2]])
    assert grade(BMS, blank, MOLECULES) == pytest.approx(
        Levenshtein.distance("InChI=1S/CH4/h1H4", "nan") / 3
    )
    numbers = MOLECULES.assign(InChI=[1.5, 2.0, 3.25])  # read back as floats, scored as text
    assert grade(BMS, numbers, MOLECULES) == pytest.approx(
        np.mean(
            [
                Levenshtein.distance(t, s)
                for t, s in zip(MOLECULES["InChI"], ["1.5", "2.0", "3.25"], strict=False)
            ]
        )
    )


@pytest.mark.parametrize(
    ("submission", "message"),
    [
        (MOLECULES.iloc[:2], "same length"),
        (MOLECULES.drop(columns="InChI").assign(inchi=WATER), "'InChI' column"),
        (MOLECULES.rename(columns={"image_id": "id"}), "'image_id' column"),
        (MOLECULES.assign(image_id=["000011a64c74"] * 3), "same ids"),
    ],
)
def test_bms_rejects(submission: pd.DataFrame, message: str) -> None:
    with pytest.raises(InvalidSubmissionError, match=message):
        grade(BMS, submission, MOLECULES)
    assert verdict(BMS, submission, MOLECULES) is None


# --- tweet-sentiment-extraction -------------------------------------------------------------

TWEET = "tweet-sentiment-extraction"
TWEETS = pd.DataFrame(
    {
        "textID": ["cb774db0d1", "549e992a42", "088c60f138"],
        "text": ["I'd have responded, if I were going", "Sooo SAD I will miss you", "my boss"],
        "selected_text": ["I'd have responded, if I were going", "Sooo SAD", "boss"],
        "sentiment": ["neutral", "negative", "negative"],
    }
)
TWEET_SUBMISSION = TWEETS[["textID", "selected_text"]]


def test_tweet_perfect_empty_and_partial() -> None:
    assert TWEET not in LOWER_IS_BETTER
    assert grade(TWEET, TWEET_SUBMISSION.iloc[::-1], TWEETS) == 1.0
    assert grade(TWEET, TWEET_SUBMISSION.assign(selected_text=""), TWEETS) == 0.0
    partial = TWEET_SUBMISSION.assign(selected_text=["if I were", "sooo sad i", 7])
    # 3 of 7 words; case ignored, 2 of 3; the number 7 is scored as the text "7": 0 of 2
    assert grade(TWEET, partial, TWEETS) == pytest.approx((3 / 7 + 2 / 3 + 0) / 3)
    assert isinstance(grade(TWEET, partial, TWEETS), float)


def test_tweet_both_empty_fails_the_whole_grade() -> None:
    """Upstream divides by zero when the answer and the prediction are both empty."""
    answers = TWEETS.assign(selected_text=["", "Sooo SAD", "boss"])
    with pytest.raises(ZeroDivisionError):
        grade(TWEET, TWEET_SUBMISSION.assign(selected_text=""), answers)
    assert verdict(TWEET, TWEET_SUBMISSION.assign(selected_text=""), answers) is None
    assert verdict(TWEET, TWEET_SUBMISSION, answers) == round((0 + 1 + 1) / 3, 5)


@pytest.mark.parametrize(
    ("submission", "message"),
    [
        (TWEET_SUBMISSION.iloc[:2], "same number of rows"),
        (TWEET_SUBMISSION.drop(columns="selected_text"), "'selected_text' column"),
        (TWEET_SUBMISSION.rename(columns={"textID": "id"}), "'textID' column"),
        (TWEET_SUBMISSION.assign(textID=["cb774db0d1"] * 3), "same textID values"),
    ],
)
def test_tweet_rejects(submission: pd.DataFrame, message: str) -> None:
    with pytest.raises(InvalidSubmissionError, match=message):
        grade(TWEET, submission, TWEETS)


# --- chaii-hindi-and-tamil-question-answering ------------------------------------------------

CHAII = "chaii-hindi-and-tamil-question-answering"
QUESTIONS = pd.DataFrame(
    {
        "id": ["903deec17", "d9841668c", "29d154b56"],
        "PredictionString": ["गंगा नदी", "1947", "சென்னை"],
    }
)


def test_chaii_perfect_dummy_and_partial() -> None:
    assert CHAII not in LOWER_IS_BETTER
    assert grade(CHAII, QUESTIONS.iloc[::-1], QUESTIONS) == 1.0
    assert grade(CHAII, QUESTIONS.assign(PredictionString="dummy text"), QUESTIONS) == 0.0
    partial = QUESTIONS.assign(PredictionString=["गंगा", "1947", ""])
    score = grade(CHAII, partial, QUESTIONS)
    assert score == pytest.approx((1 / 2 + 1 + 0) / 3) and isinstance(score, np.float64)


def test_chaii_both_empty_scores_zero_unlike_tweet() -> None:
    answers = QUESTIONS.assign(PredictionString=["गंगा नदी", "", "சென்னை"])
    submission = QUESTIONS.assign(PredictionString=["गंगा नदी", None, "சென்னை"])
    assert grade(CHAII, submission, answers) == pytest.approx(2 / 3)


def test_chaii_fewer_than_two_words_in_all_is_invalid() -> None:
    """scikit-learn sees no multilabel problem in a one-word (or empty) vocabulary."""
    answers = QUESTIONS.assign(PredictionString=["गंगा", "गंगा", "गंगा"])
    with pytest.raises(InvalidSubmissionError, match="1 distinct word"):
        grade(CHAII, answers, answers)
    assert grade(
        CHAII, answers.assign(PredictionString=["गंगा", "x", "गंगा"]), answers
    ) == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    ("submission", "message"),
    [
        (QUESTIONS.iloc[:2], "same length"),
        (QUESTIONS.drop(columns="PredictionString"), "`PredictionString` column"),
        (QUESTIONS.rename(columns={"id": "ID"}), "`id` column"),
        (QUESTIONS.assign(id=["903deec17"] * 3), "same IDs"),
        (QUESTIONS.assign(PredictionString=[1, 2, 3]), "must be text"),  # str.lower fails upstream
    ],
)
def test_chaii_rejects(submission: pd.DataFrame, message: str) -> None:
    with pytest.raises(InvalidSubmissionError, match=message):
        grade(CHAII, submission, QUESTIONS)


# --- AI4Code --------------------------------------------------------------------------------

AI4CODE = "AI4Code"
ORDERS = pd.DataFrame(
    {
        "id": ["00001756c60be8", "0001daf4c2c76d", "0002115f48f982"],
        "cell_order": ["1862f0a6 448eb224 2a9e43d6 7e2f170a", "a1b2c3d4 e5f6a7b8", "c0ffee00"],
    }
)


def reorder(order: str, positions: list[int]) -> str:
    cells = order.split()
    return " ".join(cells[k] for k in positions)


def test_ai4code_perfect_reversed_and_one_swap() -> None:
    assert AI4CODE not in LOWER_IS_BETTER
    assert grade(AI4CODE, ORDERS.iloc[::-1], ORDERS) == 1.0
    reversed_orders = ORDERS.assign(
        cell_order=[" ".join(o.split()[::-1]) for o in ORDERS["cell_order"]]
    )
    assert grade(AI4CODE, reversed_orders, ORDERS) == -1.0
    one_swap = ORDERS.assign(
        cell_order=[reorder(ORDERS["cell_order"][0], [1, 0, 2, 3]), *ORDERS["cell_order"][1:]]
    )
    # 1 inversion; pairs: 4*3 + 2*1 + 0 = 14
    assert grade(AI4CODE, one_swap, ORDERS) == pytest.approx(1 - 4 * 1 / 14)


def test_ai4code_blank_order_is_the_cell_nan_and_rejected() -> None:
    """astype(str) makes a blank cell_order the one-cell order "nan" (upstream, pandas 2)."""
    one_cell = ORDERS.iloc[[2]]  # a one-cell notebook: "nan" has the right length
    with pytest.raises(InvalidSubmissionError, match="'c0ffee00' is missing"):
        grade(AI4CODE, one_cell.assign(cell_order=[None]), one_cell)
    with pytest.raises(InvalidSubmissionError, match="same length"):
        grade(AI4CODE, ORDERS.assign(cell_order=[None, *ORDERS["cell_order"][1:]]), ORDERS)


def test_ai4code_no_pair_to_order_fails() -> None:
    single = ORDERS.iloc[[2]]
    with pytest.raises(ZeroDivisionError):
        grade(AI4CODE, single, single)


@pytest.mark.parametrize(
    ("submission", "message"),
    [
        (ORDERS.iloc[:2], "same length"),
        (ORDERS.drop(columns="cell_order"), "'id' and 'cell_order' columns"),
        (ORDERS.assign(id=[ORDERS["id"][0]] * 3), "same ids"),
        (ORDERS.assign(cell_order=["1862f0a6 448eb224", *ORDERS["cell_order"][1:]]), "same length"),
        (
            ORDERS.assign(
                cell_order=["1862f0a6 1862f0a6 2a9e43d6 7e2f170a", *ORDERS["cell_order"][1:]]
            ),
            "'448eb224' is missing",
        ),
    ],
)
def test_ai4code_rejects(submission: pd.DataFrame, message: str) -> None:
    with pytest.raises(InvalidSubmissionError, match=message):
        grade(AI4CODE, submission, ORDERS)


# --- quirks kept in two graders whose fixtures this batch added ------------------------------


def test_covid_keep_mask_follows_the_files_row_order() -> None:
    """Upstream applies ``keep`` by line number: in the answers' order a submission is scored
    on its scored positions; reversed, on the wrong rows."""
    targets = ["reactivity", "deg_Mg_pH10", "deg_pH10", "deg_Mg_50C", "deg_50C"]
    answers = pd.DataFrame(
        {
            "id_seqpos": [f"id_a_{j}" for j in range(4)],
            **{t: [1.0, 2.0, 0.0, 0.0] for t in targets},
            "keep": [True, True, False, False],
        }
    )
    submission = answers.drop(columns="keep")
    assert grade("stanford-covid-vaccine", submission, answers) == 0.0
    # reversed: lines 1-2 of the file (ids 3 and 2, all zeros) are the ones kept
    assert grade("stanford-covid-vaccine", submission.iloc[::-1], answers) == pytest.approx(
        math.sqrt((1.0**2 + 2.0**2) / 2)
    )


def test_gesture_blank_sequence_is_invalid_as_upstream() -> None:
    """``astype(str)`` makes a blank cell "nan", which is no gesture number."""
    answers = pd.DataFrame({"Id": [300, 301], "Sequence": ["1 2 3", "4 5"]})
    with pytest.raises(InvalidSubmissionError, match="integers separated by spaces"):
        grade("multi-modal-gesture-recognition", answers.assign(Sequence=["1 2 3", None]), answers)
    spaces = answers.assign(Sequence=["1 2 3", " "])  # an empty prediction, written as a space
    assert grade("multi-modal-gesture-recognition", spaces, answers) == pytest.approx(2 / 5)
