"""Graders of batch A (the dev split) on small hand-built frames in upstream's prepared schema:
a perfect submission, a constant guess, and invalid submissions, each through a CSV round trip
as the harness reads them; and the pinned-library helpers they and older graders share."""

from __future__ import annotations

import io
import re

import numpy as np
import pandas as pd
import pytest

from bench_adapters.mlebench.graders import InvalidSubmissionError, get_grader
from bench_adapters.mlebench.graders._accuracy import accuracy_score
from bench_adapters.mlebench.graders._sort import introsort_argsort, upstream_order


def csv_roundtrip(frame: pd.DataFrame) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(frame.to_csv(index=False)))


def grade(competition_id: str, submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    spec = get_grader(competition_id)
    assert spec is not None, competition_id
    return spec.grade(csv_roundtrip(submission), csv_roundtrip(answers))


def exact(message: str) -> str:
    return f"^{re.escape(message)}$"


# --- invasive-species-monitoring: AUC ---------------------------------------------------------

INVASIVE = pd.DataFrame({"name": [7, 3, 12, 5, 9], "invasive": [1, 0, 1, 0, 1]})


def test_invasive_species_auc_perfect_constant_and_reversed() -> None:
    cid = "invasive-species-monitoring"
    perfect = INVASIVE.assign(invasive=[0.9, 0.2, 0.8, 0.1, 0.7]).iloc[::-1]
    assert grade(cid, perfect, INVASIVE) == 1.0
    assert grade(cid, INVASIVE.assign(invasive=0.5), INVASIVE) == 0.5
    assert grade(cid, INVASIVE.assign(invasive=1 - INVASIVE["invasive"]), INVASIVE) == 0.0


@pytest.mark.parametrize(
    ("submission", "message"),
    [
        (INVASIVE.drop(columns="invasive"), "Submission should have a invasive column"),
        (INVASIVE.rename(columns={"name": "id"}), "Submission should have an name column"),
        (INVASIVE.iloc[:-1], "Submission and answers should have the same number of rows"),
        (INVASIVE.assign(invasive=[0.1, 0.2, 1.5, 0.3, 0.4]), "should contain probabilities"),
        (INVASIVE.assign(name=[7, 3, 12, 5, 99]), "should have the same name values"),
    ],
)
def test_invasive_species_rejects(submission: pd.DataFrame, message: str) -> None:
    with pytest.raises(InvalidSubmissionError, match=re.escape(message)):
        grade("invasive-species-monitoring", submission, INVASIVE)


# --- ml2021spring-hw2 and movie-review: accuracy through the shared preparation ---------------

ACCURACY = {  # id column, target, answers
    "ml2021spring-hw2": ("Id", "ClassId", pd.DataFrame({"Id": range(4), "ClassId": [5, 0, 38, 5]})),
    "movie-review-sentiment-analysis-kernels-only": (
        "PhraseId",
        "Sentiment",
        pd.DataFrame(
            {
                "PhraseId": [156061, 156062, 156063, 156064],
                "SentenceId": [8545, 8545, 8545, 8546],
                "Phrase": ["An intermittently pleasing", "pleasing", "An", "dull"],
                "Sentiment": [3, 3, 2, 0],
            }
        ),
    ),
}


@pytest.mark.parametrize("cid", sorted(ACCURACY))
def test_accuracy_perfect_constant_floats_and_text(cid: str) -> None:
    id_col, target, answers = ACCURACY[cid]
    submission = answers[[id_col, target]]
    assert grade(cid, submission.iloc[::-1], answers) == 1.0
    assert grade(cid, submission.assign(**{target: answers[target].iloc[0]}), answers) == 0.5
    assert grade(cid, submission.astype({target: float}), answers) == 1.0  # 3.0 matches 3
    text = submission.astype({target: object})
    text.loc[0, target] = "three"  # the column reads back as text: every label is wrong
    assert grade(cid, text, answers) == 0.0


@pytest.mark.parametrize("cid", sorted(ACCURACY))
def test_accuracy_rejects(cid: str) -> None:
    id_col, target, answers = ACCURACY[cid]
    submission = answers[[id_col, target]]
    cases = {
        "Submission must have the same length as the answers.": submission.iloc[:-1],
        f"Submission must have a `{target}` column": submission.drop(columns=target),
        f"Submission must have a `{id_col}` column": submission.drop(columns=id_col),
        f"Submission and Answers `{id_col}`'s do not match": pd.concat(
            [submission.iloc[:-1], submission.iloc[:1]]
        ),
    }
    for message, bad in cases.items():
        with pytest.raises(InvalidSubmissionError, match=exact(message)):
            grade(cid, bad, answers)


# --- paddy-disease-classification: its own checks, blank labels are wrong ----------------------

PADDY = pd.DataFrame(
    {
        "image_id": ["100330.jpg", "100365.jpg", "100382.jpg", "100632.jpg"],
        "label": ["blast", "normal", "hispa", "blast"],
        "variety": ["ADT45", "ADT45", "Ponni", "Zonal"],
        "age": [45, 60, 70, 50],
    }
)


def test_paddy_perfect_constant_and_blank_sample() -> None:
    cid = "paddy-disease-classification"
    submission = PADDY[["image_id", "label"]]
    assert grade(cid, submission.iloc[::-1], PADDY) == 1.0
    assert grade(cid, submission.assign(label="blast"), PADDY) == 0.5
    assert grade(cid, submission.assign(label=""), PADDY) == 0.0  # the sample: all blank
    partly = submission.astype({"label": object})
    partly.loc[1, "label"] = np.nan
    assert grade(cid, partly, PADDY) == 0.75  # a blank label is simply wrong
    assert grade(cid, submission.assign(extra=1), PADDY) == 1.0


def test_paddy_rejects() -> None:
    submission = PADDY[["image_id", "label"]]
    cases = {
        "Expected columns": submission.drop(columns="label"),
        "Expected 4 rows, but got 3": submission.iloc[:-1],
        "Invalid image IDs in the submission!": submission.assign(
            image_id=["100330.jpg", "100365.jpg", "100382.jpg", "999999.jpg"]
        ),
    }
    for message, bad in cases.items():
        with pytest.raises(InvalidSubmissionError, match=re.escape(message)):
            grade("paddy-disease-classification", bad, PADDY)


# --- plant-seedlings-classification: micro-F1 ---------------------------------------------------

SEEDLINGS = pd.DataFrame(
    {
        "file": ["0050f38b3.png", "0183fdf68.png", "0260cffa8.png", "05eedce4d.png"],
        "species": ["Maize", "Sugar beet", "Charlock", "Maize"],
    }
)


def test_seedlings_micro_f1_perfect_constant_and_unknown() -> None:
    cid = "plant-seedlings-classification"
    assert grade(cid, SEEDLINGS.iloc[::-1], SEEDLINGS) == 1.0
    assert grade(cid, SEEDLINGS.assign(species="Sugar beet"), SEEDLINGS) == 0.25
    assert grade(cid, SEEDLINGS.assign(species="Dandelion"), SEEDLINGS) == 0.0
    blank = SEEDLINGS.astype({"species": object})
    blank.loc[0, "species"] = np.nan  # a blank among names is just wrong
    assert grade(cid, blank, SEEDLINGS) == 0.75


def test_seedlings_rejects() -> None:
    cases = {
        "Submission must have 'species' column": SEEDLINGS.drop(columns="species"),
        "Submission must have 'file' column": SEEDLINGS.drop(columns="file"),
        "Submission length 3 != answers length 4": SEEDLINGS.iloc[:-1],
        "Submission and answers have mismatched 'file' columns": SEEDLINGS.assign(
            file=["0050f38b3.png"] * 4
        ),
    }
    for message, bad in cases.items():
        with pytest.raises(InvalidSubmissionError, match=exact(message)):
            grade("plant-seedlings-classification", bad, SEEDLINGS)
    with pytest.raises(ValueError, match="contains NaN"):  # no names at all: read as floats
        grade("plant-seedlings-classification", SEEDLINGS.assign(species=np.nan), SEEDLINGS)


# --- the pinned-library helpers -------------------------------------------------------------


def test_accuracy_keeps_scikit_learn_15_checks() -> None:
    truth = np.array([True, False, True, True])
    as_text = np.array(["True", "False", "True", "oops"], dtype=object)
    assert accuracy_score(truth, as_text) == 0.0  # mixed types: scored, text never equal
    with pytest.raises(TypeError):  # a binary pair whose labels cannot be sorted together
        accuracy_score(truth, np.array(["True", "False", "True", "True"], dtype=object))
    with pytest.raises(ValueError, match="mix of binary and continuous"):
        accuracy_score(truth, np.array([0.5, 1.0, 0.0, 1.0]))
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        accuracy_score(truth, truth[:3])
    assert accuracy_score(np.array([1, 2, 3, 3]), np.array([1.0, 2.0, 0.0, 3.0])) == 0.75


def test_upstream_order_sorts_and_keeps_missing_last() -> None:
    keys = pd.Series(["b", None, "a", "c"])
    assert upstream_order(keys).tolist() == [2, 0, 3, 1]


def test_introsort_is_a_sort_that_does_not_keep_ties_in_order() -> None:
    rng = np.random.default_rng(0)
    values = [int(v) for v in rng.integers(0, 5, 200)]
    order = introsort_argsort(values)
    assert sorted(order.tolist()) == list(range(200))
    assert [values[i] for i in order] == sorted(values)
    stable = np.argsort(values, kind="stable")
    assert order.tolist() != stable.tolist()  # an unstable sort: ties come out reordered
