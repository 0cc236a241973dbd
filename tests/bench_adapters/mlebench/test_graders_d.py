"""Batch D graders (numeric metrics) on small hand-built frames in upstream's prepared schema
(the generators are tested in ``test_synthetic_d.py``).

Each grader: a perfect submission, a constant one, invalid ones (``InvalidSubmissionError``
where upstream raises its own, any error where upstream crashes), and the upstream quirks its
docstring names. Upstream's own numbers on many more submissions are in the parity data
(``tests/bench_adapters/data/upstream_parity.jsonl``).
"""

from __future__ import annotations

import io
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import label_ranking_average_precision_score

from bench_adapters import CompetitionTask, resolve_task
from bench_adapters.csvio import read_in_chunks
from bench_adapters.mlebench.data import LOWER_IS_BETTER
from bench_adapters.mlebench.graders import InvalidSubmissionError, get_grader
from bench_adapters.mlebench.graders.freesound_audio_tagging_2019 import (
    CLASSES as FREESOUND_CLASSES,
)
from bench_adapters.mlebench.graders.freesound_audio_tagging_2019 import lwlrap
from bench_adapters.mlebench.graders.google_quest_challenge import TARGETS as QUEST_TARGETS
from bench_adapters.mlebench.synthetic import make_prepared
from bench_adapters.scoring import run_grade_fn

CHAMPS = "champs-scalar-coupling"
FREESOUND = "freesound-audio-tagging-2019"
QUEST = "google-quest-challenge"
ICECUBE = "icecube-neutrinos-in-deep-ice"
ESSAYS = "learning-agency-lab-automated-essay-scoring-2"
OSIC = "osic-pulmonary-fibrosis-progression"
PETFINDER = "petfinder-pawpularity-score"
VOLCANO = "predict-volcanic-eruptions-ingv-oe"
SPINE = "rsna-2022-cervical-spine-fracture-detection"
GNSS = "smartphone-decimeter-2022"
PATENT = "us-patent-phrase-to-phrase-matching"
COMPETITIONS = [
    CHAMPS,
    FREESOUND,
    QUEST,
    ICECUBE,
    ESSAYS,
    OSIC,
    PETFINDER,
    VOLCANO,
    SPINE,
    GNSS,
    PATENT,
]


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


def test_directions() -> None:
    lower = {CHAMPS, ICECUBE, PETFINDER, VOLCANO, SPINE, GNSS}
    assert {c for c in COMPETITIONS if c in LOWER_IS_BETTER} == lower


# --- champs-scalar-coupling: mean over types of log(MAE) -----------------------------------

CHAMPS_ANSWERS = pd.DataFrame(
    {
        "id": [10, 11, 12, 13, 14, 15],
        "molecule_name": ["dsgdb9nsd_000001"] * 3 + ["dsgdb9nsd_000002"] * 3,
        "atom_index_0": [1, 1, 2, 1, 2, 3],
        "atom_index_1": [0, 2, 0, 0, 3, 0],
        "type": ["1JHC", "2JHH", "1JHC", "1JHN", "2JHH", "1JHN"],
        "scalar_coupling_constant": [84.0, -11.0, 86.0, 32.0, -10.0, 30.0],
    }
)


def champs_submission(values: list[float]) -> pd.DataFrame:
    return CHAMPS_ANSWERS[["id"]].assign(scalar_coupling_constant=values)


def test_champs_perfect_is_minus_infinity_and_errors_are_logged_per_type() -> None:
    answers = CHAMPS_ANSWERS
    gold = answers[["id", "scalar_coupling_constant"]]
    assert grade(CHAMPS, gold.iloc[::-1], answers) == -math.inf  # valid, not an error
    assert verdict(CHAMPS, gold, answers) == -math.inf
    # Per type MAE: 1JHC |84-80|,|86-80| -> 5; 2JHH 1, 0 -> 0.5; 1JHN 2, 0 -> 1.
    score = grade(CHAMPS, champs_submission([80, -10, 80, 30, -10, 30]), answers)
    assert score == pytest.approx((math.log(5) + math.log(0.5) + math.log(1)) / 3)
    zero = grade(CHAMPS, champs_submission([0] * 6), answers)
    assert zero == pytest.approx((math.log(85) + math.log(10.5) + math.log(31)) / 3)


def test_champs_duplicates_weigh_more_and_missing_ids_are_named() -> None:
    answers = CHAMPS_ANSWERS
    off = champs_submission([80, -12, 86, 33, -10, 30])  # MAE 1JHC 2, 2JHH 0.5, 1JHN 0.5
    assert grade(CHAMPS, off, answers) == pytest.approx(-math.log(2) / 3)
    # A copy of row 10 passes the set check, and the merge scores it twice: 1JHC MAE 8/3.
    doubled = pd.concat([off, off.iloc[:1]])
    expected = (math.log(8 / 3) + 2 * math.log(0.5)) / 3
    assert grade(CHAMPS, doubled, answers) == pytest.approx(expected)
    message = r"^Submission is missing the following ids: \{15\}$"
    with pytest.raises(InvalidSubmissionError, match=message):
        grade(CHAMPS, off.iloc[:-1], answers)
    with pytest.raises(InvalidSubmissionError, match="missing the following ids"):
        grade(CHAMPS, off.assign(id=off["id"] + 1), answers)


def test_champs_rejects_missing_columns_and_bad_values() -> None:
    answers = CHAMPS_ANSWERS
    good = champs_submission([80.0] * 6)
    with pytest.raises(InvalidSubmissionError, match="Target column scalar_coupling_constant"):
        grade(CHAMPS, good.drop(columns=["scalar_coupling_constant"]), answers)
    with pytest.raises(InvalidSubmissionError, match="ID column not found"):
        grade(CHAMPS, good.drop(columns=["id"]), answers)
    for bad in (good.assign(scalar_coupling_constant=[np.nan, 1, 2, 3, 4, 5]),
                good.assign(scalar_coupling_constant="high")):  # fmt: skip
        with pytest.raises(ValueError):  # scikit-learn's input checks: upstream crashes too
            grade(CHAMPS, bad, answers)
        assert verdict(CHAMPS, bad, answers) is None
    with pytest.raises(AssertionError, match="Type column"):
        grade(CHAMPS, good, answers.drop(columns=["type"]))


def test_champs_overflow_gives_infinity_as_scikit_learn_1_5() -> None:
    huge = champs_submission([1e308] * 6)
    assert grade(CHAMPS, pd.concat([huge] * 4), pd.concat([CHAMPS_ANSWERS] * 4)) == math.inf


# --- freesound-audio-tagging-2019: label-weighted LRAP --------------------------------------


def freesound_frame(names: list[str], rows: list[list[float]]) -> pd.DataFrame:
    matrix = np.zeros((len(rows), len(FREESOUND_CLASSES)))
    matrix[:, : len(rows[0])] = rows
    frame = pd.DataFrame(matrix, columns=FREESOUND_CLASSES)
    return pd.concat([pd.DataFrame({"fname": names}), frame], axis=1)


FREESOUND_NAMES = ["0a.wav", "1b.wav", "2c.wav"]
FREESOUND_ANSWERS = freesound_frame(FREESOUND_NAMES, [[1, 0, 0], [0, 1, 1], [0, 0, 0]])


def test_freesound_perfect_constant_and_label_weighting() -> None:
    answers = FREESOUND_ANSWERS.astype({c: int for c in FREESOUND_CLASSES})
    assert grade(FREESOUND, answers.iloc[::-1], answers) == 1.0
    # All scores tied: each true label ranks last of 80, so its precision is (true labels)/80.
    # Clips weigh by their labels: (1 * 1/80 + 2 * 2/80) / 3; the clip without labels is skipped.
    constant = answers.assign(**dict.fromkeys(FREESOUND_CLASSES, 0.5))
    assert grade(FREESOUND, constant, answers) == pytest.approx((1 / 80 + 4 / 80) / 3)
    # Clip 2 ranks label 1 first, then 0, then 2: precisions 1/1 and 2/3.
    guess = freesound_frame(FREESOUND_NAMES, [[0.9, 0.1, 0.0], [0.5, 0.9, 0.4], [0, 0, 0]])
    assert grade(FREESOUND, guess, answers) == pytest.approx((1 + 1 + 2 / 3) / 3)
    spec = get_grader(FREESOUND)
    assert spec is not None
    rng = np.random.default_rng(0)
    truth = (rng.random((50, 80)) < 0.03).astype(int)
    truth[0] = 1  # every label true: that clip scores 1
    scores = rng.integers(0, 4, (50, 80)) / 4  # many ties
    keep = truth.sum(axis=1) > 0
    expected = label_ranking_average_precision_score(
        truth[keep] > 0, scores[keep], sample_weight=truth[keep].sum(axis=1)
    )
    assert lwlrap(truth, scores, chunk=7) == pytest.approx(expected, abs=1e-12)


def test_freesound_rejects_as_upstream() -> None:
    answers = FREESOUND_ANSWERS
    good = answers.copy()
    cases: dict[str, tuple[type[Exception], pd.DataFrame]] = {
        "same length": (InvalidSubmissionError, good.iloc[:-1]),
        "'fname' column": (InvalidSubmissionError, good.rename(columns={"fname": "id"})),
        "do not match expected": (
            InvalidSubmissionError,
            good.rename(columns={"Bark": "Dog", "Accordion": "Bark"}),
        ),
        "Shapes must match": (ValueError, good.drop(columns=["Zipper_(clothing)"])),
        "same ids": (InvalidSubmissionError, good.assign(fname=["0a.wav", "0a.wav", "2c.wav"])),
        "converting submission values": (InvalidSubmissionError, good.assign(Bark="loud")),
        "NaN": (ValueError, good.assign(Bark=[np.nan, 0, 0])),
    }
    for message, (error, submission) in cases.items():
        with pytest.raises(error, match=message):
            grade(FREESOUND, submission, answers)
    # Every column boolean: upstream's negation of the scores fails; one boolean column is fine.
    flags = good.astype({c: bool for c in FREESOUND_CLASSES})
    assert verdict(FREESOUND, flags, answers) is None
    assert verdict(FREESOUND, good.astype({"Bark": bool}), answers) == 1.0


# --- google-quest-challenge: mean Spearman over 30 columns -----------------------------------


def quest_frame(ids: list[int], columns: dict[str, list[float]]) -> pd.DataFrame:
    frame = pd.DataFrame({"qa_id": ids})
    base = np.linspace(0, 1, len(ids))
    for k, name in enumerate(QUEST_TARGETS):
        frame[name] = columns.get(name, np.roll(base, k))
    return frame


QUEST_ANSWERS = quest_frame([5, 9, 2, 7], {})


def test_quest_perfect_reversed_and_positional_pairing() -> None:
    answers = QUEST_ANSWERS
    assert grade(QUEST, answers.iloc[::-1], answers) == 1.0
    first = QUEST_TARGETS[0]
    flipped = answers.assign(**{first: -answers[first]})
    assert grade(QUEST, flipped, answers) == pytest.approx((29 - 1) / 30)
    # No id check: other ids are sorted and paired with the answers' rows by position.
    assert grade(QUEST, answers.assign(qa_id=[50, 90, 20, 70]), answers) == 1.0


def test_quest_constant_or_missing_cells_give_nan_and_text_ranks_lexicographically() -> None:
    answers = QUEST_ANSWERS
    first = QUEST_TARGETS[0]
    constant = verdict(QUEST, answers.assign(**{first: 0.5}), answers)
    assert constant is not None and math.isnan(constant)
    assert math.isnan(grade(QUEST, answers.assign(**{first: [0.1, np.nan, 0.2, 0.3]}), answers))
    # Answers' first column by qa_id order (2, 5, 7, 9): ranks of "b", "d", "a", "c".
    ordered = answers.sort_values("qa_id")
    words = ordered.assign(**{first: ordered[first].rank().map({1: "a", 2: "b", 3: "c", 4: "d"})})
    assert grade(QUEST, words, answers) == 1.0


def test_quest_rejects_as_upstream() -> None:
    answers = QUEST_ANSWERS
    cases = {
        "missing `qa_id` column": answers.drop(columns=["qa_id"]),
        "missing the following columns: {'answer_helpful'}": answers.drop(
            columns=["answer_helpful"]
        ),
        "Submission has 31 columns, expected 30": answers.assign(extra=1),
        "different lengths": answers.iloc[:-1],
    }
    for message, submission in cases.items():
        with pytest.raises(InvalidSubmissionError, match=re.escape(message)):
            grade(QUEST, submission, answers)


# --- icecube-neutrinos-in-deep-ice: mean angular error --------------------------------------

ICECUBE_ANSWERS = pd.DataFrame(
    {"event_id": [24, 30, 31, 99], "azimuth": [0.5, 1.0, 4.0, 6.0], "zenith": [0.2, 1.5, 3.0, 1.0]}
)


def test_icecube_perfect_constant_and_pairing_by_id() -> None:
    answers = ICECUBE_ANSWERS
    shuffled = answers.sample(frac=1, random_state=1)
    assert grade(ICECUBE, shuffled, answers) == pytest.approx(0, abs=1e-7)
    # Every zenith 0 points straight up: the error is each true zenith.
    up = answers.assign(zenith=0.0)[["zenith", "azimuth", "event_id"]]  # any column order
    assert grade(ICECUBE, up, answers) == pytest.approx(answers["zenith"].mean())
    # Opposite directions are pi apart; angles out of range are taken as given.
    opposite = answers.assign(zenith=np.pi - answers["zenith"], azimuth=answers["azimuth"] + np.pi)
    assert grade(ICECUBE, opposite, answers) == pytest.approx(np.pi)
    floats = answers.assign(event_id=answers["event_id"] * 1.0)
    assert grade(ICECUBE, floats, answers) == pytest.approx(0, abs=1e-7)


def test_icecube_rejects_as_upstream() -> None:
    answers = ICECUBE_ANSWERS
    cases = {
        "must contain columns": answers.assign(extra=1),
        "Azimuth must be a number": answers.assign(azimuth="north"),
        "Zenith must be a number": answers.assign(zenith=answers["zenith"] > 1),  # booleans
        "Zenith must not be infinite": answers.assign(zenith=np.inf),
        "Azimuth must not be infinite": answers.assign(azimuth=[0.5, np.nan, 4.0, 6.0]),
        "same length": answers.iloc[:-1],
        "same event_ids": answers.assign(event_id=[24, 30, 31, 100]),
    }
    for message, submission in cases.items():
        with pytest.raises(InvalidSubmissionError, match=message):
            grade(ICECUBE, submission, answers)


def test_answers_are_handed_out_without_a_copy_yet_kept_safe(tmp_path: Path) -> None:
    """Under copy-on-write (pandas 3) each grade gets a shallow copy of the cached answers: no
    second copy of 13 M rows, and a grader's edits still never reach the cache."""
    make_prepared(PATENT, tmp_path, seed=1)
    task = resolve_task(f"mlebench/{PATENT}", data_dir=tmp_path)
    assert isinstance(task, CompetitionTask)
    first = task._answers()
    score = first["score"].to_numpy()
    first.loc[first.index[0], "score"] = 99.0
    first["extra"] = 1
    second = task._answers()
    assert "extra" not in second.columns and second["score"].iloc[0] != 99.0
    if int(pd.__version__.split(".")[0]) >= 3:
        assert np.shares_memory(second["score"].to_numpy(), score)


@pytest.mark.parametrize("chunk_rows", [1, 3, 64])
def test_files_are_read_in_chunks_as_a_whole_file_read(tmp_path: Path, chunk_rows: int) -> None:
    """The reader that keeps 13 M answer rows within three times their size gives what a
    whole-file read gives, numbers and text alike, and hands a dtype that changes back to it."""
    path = tmp_path / "rows.csv"
    frame = pd.DataFrame(
        {
            "event_id": np.arange(10) * 7,
            "x": np.linspace(-1, 1, 10) / 3,
            "flag": [True, False] * 5,
            "sentence": [f"the {i}th sentence, quoted" for i in range(10)],
        }
    )
    frame.to_csv(path, index=False)
    read = read_in_chunks(path, chunk_rows)
    assert read is not None
    pd.testing.assert_frame_equal(read, pd.read_csv(path))
    late_blank = frame.astype({"event_id": object})
    late_blank.loc[9, "event_id"] = None  # ints, then a float column in the last chunk
    late_blank.to_csv(path, index=False)
    assert read_in_chunks(path, chunk_rows) is None or chunk_rows == 64
    for cell in ["12", " -3.5e2 ", "True", "nan", "inf", ""]:  # a text column's odd cells
        odd = frame.assign(sentence=frame["sentence"].where(frame.index != 4, cell))
        odd.to_csv(path, index=False)
        read = read_in_chunks(path, chunk_rows)
        if chunk_rows == 1:  # the odd cell's chunk alone: a number, a boolean or missing
            assert read is None, cell
        else:
            assert read is not None and read.equals(pd.read_csv(path)), cell


@pytest.mark.parametrize("seed", range(6))
def test_a_chunked_read_never_differs_from_a_whole_file_read(tmp_path: Path, seed: int) -> None:
    """Columns drawn from cells that parse as text, numbers, booleans or missing values: where
    the chunked reader answers at all, its frame is the whole-file read's."""
    rng = np.random.default_rng(seed)
    cells = ["abc", "x y", "1", "2.5", "", "True", "false", " 7 ", "NaN", "Inf", "1e3", "-0"]
    columns = {f"c{k}": rng.choice(cells[: rng.integers(2, len(cells) + 1)], 40) for k in range(4)}
    path = tmp_path / "mixed.csv"
    pd.DataFrame(columns).to_csv(path, index=False)
    for chunk_rows in (1, 5, 16, 64):
        read = read_in_chunks(path, chunk_rows)
        if read is not None:
            pd.testing.assert_frame_equal(read, pd.read_csv(path))
    plain = pd.DataFrame({"a": rng.choice(["abc", "x y"], 40), "b": rng.integers(0, 9, 40)})
    plain.to_csv(path, index=False)
    read = read_in_chunks(path, 7)
    assert read is not None
    pd.testing.assert_frame_equal(read, pd.read_csv(path))


@pytest.mark.parametrize(
    ("cid", "id_col", "target"),
    [
        ("cdiscount-image-classification-challenge", "_id", "category_id"),
        ("bms-molecular-translation", "image_id", "InChI"),
        ("billion-word-imputation", "id", "sentence"),
        ("nfl-player-contact-detection", "contact_id", "contact"),
    ],
)
def test_a_submission_in_the_answers_order_grades_as_when_sorted(
    tmp_path: Path, cid: str, id_col: str, target: str
) -> None:
    """Graders skip the sorts (and their copies) where the ids already pair row i with row i:
    the score is the sorted path's, which a shuffled copy of the same rows takes."""
    make_prepared(cid, tmp_path, seed=3)
    task = resolve_task(f"mlebench/{cid}", data_dir=tmp_path)
    assert isinstance(task, CompetitionTask)
    answers = task._answers()
    ordered = answers[[id_col, target]].copy()
    half = len(ordered) // 2
    ordered[target] = np.concatenate(  # half the rows take their neighbour's label or text
        [np.roll(ordered[target].to_numpy()[:half], 1), ordered[target].to_numpy()[half:]]
    )
    shuffled = ordered.sample(frac=1, random_state=0).reset_index(drop=True)
    grade = task.grader_spec.grade
    score = grade(ordered, answers)
    assert score == grade(shuffled, answers)
    assert score != grade(answers[[id_col, target]].copy(), answers)


# --- learning-agency-lab-automated-essay-scoring-2: quadratic-weighted kappa ---------------

ESSAY_ANSWERS = pd.DataFrame(
    {
        "essay_id": ["0a1b2c3", "1f00d00", "2e2e2e2", "3abcdef"],
        "full_text": ["a"] * 4,
        "score": [1, 3, 4, 6],
    }
)


def test_essays_perfect_constant_and_id_checks() -> None:
    answers = ESSAY_ANSWERS
    submission = answers[["essay_id", "score"]]
    assert grade(ESSAYS, submission.iloc[::-1], answers) == 1.0
    assert grade(ESSAYS, submission.assign(score=3), answers) == 0.0
    with pytest.raises(ValueError, match="could not be broadcast"):  # no length check
        grade(ESSAYS, submission.iloc[:-1], answers)
    for bad in (submission.iloc[:1], submission.assign(essay_id=["x", "y", "z", "w"])):
        with pytest.raises(InvalidSubmissionError, match="same ids"):
            grade(ESSAYS, bad, answers)
    with pytest.raises(InvalidSubmissionError, match="should not be empty"):
        grade(ESSAYS, submission.iloc[:0], answers)
    with pytest.raises(InvalidSubmissionError, match="target column 'score'"):
        grade(ESSAYS, submission.drop(columns=["score"]), answers)
    assert verdict(ESSAYS, submission.assign(score=[1.5, 3, 4, 6]), answers) is None


# --- osic-pulmonary-fibrosis-progression: Laplace log-likelihood -----------------------------

OSIC_ANSWERS = pd.DataFrame(
    {
        "Patient": ["IDa"] * 5 + ["IDb"] * 5,
        "Weeks": [0, 1, 2, 3, 4] * 2,
        "FVC": [3000, np.nan, 2900, 2800, 2700, 2000, 1900, np.nan, 1800, 1700],
    }
).assign(Patient_Week=lambda f: f["Patient"] + "_" + f["Weeks"].astype(str), Confidence=100)


def osic_submission(fvc: float, confidence: float) -> pd.DataFrame:
    return OSIC_ANSWERS[["Patient_Week"]].assign(FVC=fvc, Confidence=confidence)


def test_osic_scores_each_patients_last_three_weeks() -> None:
    answers = OSIC_ANSWERS
    perfect = answers[["Patient_Week", "FVC", "Confidence"]].assign(Confidence=70)
    assert grade(OSIC, perfect, answers) == pytest.approx(-math.log(math.sqrt(2) * 70))
    # Scored: IDa weeks 2-4 (2900, 2800, 2700) and IDb weeks 1, 3, 4 (1900, 1800, 1700); errors
    # above 1000 count 1000, and a blank confidence counts as 0, so as 70.
    far = grade(OSIC, osic_submission(0.0, np.nan), answers)
    assert far == pytest.approx(-math.sqrt(2) * 1000 / 70 - math.log(math.sqrt(2) * 70))
    guess = grade(OSIC, osic_submission(2800.0, 100.0), answers)
    deltas = [100, 0, 100, 900, 1000, 1000]
    expected = np.mean([-math.sqrt(2) * d / 100 - math.log(math.sqrt(2) * 100) for d in deltas])
    assert guess == pytest.approx(expected)


def test_osic_partial_submissions_pass_and_bad_ones_fail() -> None:
    answers = OSIC_ANSWERS
    partial = osic_submission(2800.0, 100.0).iloc[[2, 3]]  # IDa weeks 2 and 3 only
    expected = np.mean([-math.sqrt(2) * d / 100 - math.log(math.sqrt(2) * 100) for d in (100, 0)])
    assert grade(OSIC, partial, answers) == pytest.approx(expected)
    assert math.isnan(
        grade(OSIC, osic_submission(2800.0, 100.0).iloc[:2], answers)
    )  # nothing scored
    with pytest.raises(
        InvalidSubmissionError, match="Patient_Week IDc_1 in submission does not exist"
    ):
        grade(OSIC, pd.concat([partial, partial.assign(Patient_Week="IDc_1")]), answers)
    with pytest.raises(InvalidSubmissionError, match="FVC column in submission must be numeric"):
        grade(OSIC, partial.assign(FVC="high"), answers)
    with pytest.raises(InvalidSubmissionError, match="'Confidence' column"):
        grade(OSIC, partial.drop(columns=["Confidence"]), answers)


# --- petfinder-pawpularity-score: RMSE -------------------------------------------------------

PET_ANSWERS = pd.DataFrame(
    {"Id": ["a1", "b2", "c3", "d4"], "Blur": 0, "Pawpularity": [10, 20, 30, 100]}
)


def test_petfinder_perfect_constant_and_range() -> None:
    answers = PET_ANSWERS
    submission = answers[["Id", "Pawpularity"]]
    assert grade(PETFINDER, submission.iloc[::-1], answers) == 0.0
    assert grade(PETFINDER, submission.assign(Pawpularity=40), answers) == pytest.approx(
        math.sqrt((30**2 + 20**2 + 10**2 + 60**2) / 4)
    )
    for bad in (
        submission.assign(Pawpularity=0.5),
        submission.assign(Pawpularity=[1, np.nan, 2, 3]),
    ):
        with pytest.raises(InvalidSubmissionError, match="between 1 and 100"):
            grade(PETFINDER, bad, answers)
    with pytest.raises(InvalidSubmissionError, match="IDs in submission do not match"):
        grade(PETFINDER, submission.assign(Id=["a1", "b2", "c3", "e5"]), answers)
    with pytest.raises(ValueError, match="could not be broadcast"):  # no length check
        grade(PETFINDER, submission.iloc[:-1], answers)


# --- predict-volcanic-eruptions-ingv-oe: MAE as an integer -----------------------------------

VOLCANO_ANSWERS = pd.DataFrame({"segment_id": [11, 22, 33], "time_to_eruption": [1000, 2000, 4000]})


def test_volcano_integer_mae_duplicates_and_overflow() -> None:
    answers = VOLCANO_ANSWERS
    score = grade(VOLCANO, answers.assign(time_to_eruption=[1001.5, 2000, 4000]), answers)
    assert score == 0 and isinstance(score, int)  # 0.5 rounds to even
    off = answers.assign(time_to_eruption=[1003, 2000, 4000])
    assert grade(VOLCANO, off, answers) == 1
    assert grade(VOLCANO, pd.concat([off, off.iloc[:1]]), answers) == 2  # 6 / 4 = 1.5 -> 2
    with pytest.raises(InvalidSubmissionError, match=re.escape("the following segment_ids: {33}")):
        grade(VOLCANO, off.iloc[:-1], answers)
    assert (
        verdict(VOLCANO, pd.concat([answers.assign(time_to_eruption=1e308)] * 2), answers) is None
    )
    assert verdict(VOLCANO, answers.assign(time_to_eruption=[1, np.nan, 3]), answers) is None


# --- rsna-2022-cervical-spine-fracture-detection: weighted log loss --------------------------


def spine_answers() -> pd.DataFrame:
    wide = pd.DataFrame(
        {"StudyInstanceUID": ["1.2.9", "1.2.10"], "patient_overall": [1, 0], "C1": [1, 0]}
        | {f"C{k}": [0, 0] for k in range(2, 8)}
    )
    long = wide.melt(id_vars="StudyInstanceUID", var_name="prediction_type", value_name="fractured")
    return long.assign(row_id=long["StudyInstanceUID"] + "_" + long["prediction_type"])


def test_spine_perfect_half_and_weighted_rows() -> None:
    answers = spine_answers()
    submission = answers[["row_id", "fractured"]]
    assert grade(SPINE, submission.iloc[::-1], answers) == pytest.approx(0, abs=1e-12)
    assert grade(SPINE, submission.assign(fractured=0.5), answers) == pytest.approx(math.log(2))
    # Study 1.2.9 (overall and C1 positive) predicted 0.5 on C1 only: weight 2 of 14+2+6 = 22.
    shaky = submission.assign(
        fractured=np.where(submission["row_id"] == "1.2.9_C1", 0.5, submission["fractured"])
    )
    assert grade(SPINE, shaky, answers) == pytest.approx(2 * math.log(2) / 22 / 2)
    for bad in (submission.assign(fractured=1.2), submission.assign(fractured=np.nan)):
        with pytest.raises(InvalidSubmissionError, match="between 0 and 1"):
            grade(SPINE, bad, answers)
    with pytest.raises(InvalidSubmissionError, match="same ids"):
        grade(SPINE, submission.assign(row_id=submission["row_id"] + "x"), answers)
    with pytest.raises(ValueError, match="could not be broadcast"):  # no length check
        grade(SPINE, submission.iloc[:-1], answers)


# --- smartphone-decimeter-2022: mean of P50 and P95 distances per trip ------------------------

GNSS_ANSWERS = pd.DataFrame(
    {
        "tripId": ["d-1-P4"] * 3 + ["d-2-P5"] * 2,
        "UnixTimeMillis": [1000, 2000, 3000, 1000, 2000],
        "LatitudeDegrees": [37.0, 37.001, 37.002, 36.0, 36.0],
        "LongitudeDegrees": [-122.0, -122.0, -122.0, -121.0, -121.001],
    }
)


def test_gnss_pairs_rows_by_position_within_a_trip() -> None:
    answers = GNSS_ANSWERS
    assert grade(GNSS, answers.iloc[[3, 4, 0, 1, 2]], answers) == 0.0  # trips in any order
    assert grade(GNSS, answers.assign(UnixTimeMillis=0), answers) == 0.0  # times never read
    # Trip 1 shifted north by 0.001 degrees (111.19 m) on every row; trip 2 exact.
    shifted = answers.assign(
        LatitudeDegrees=answers["LatitudeDegrees"] + np.r_[0.001, 0.001, 0.001, 0, 0]
    )
    assert grade(GNSS, shifted, answers) == pytest.approx(
        6_371_000 * math.radians(0.001) / 2, rel=1e-6
    )
    swapped = answers.iloc[[1, 0, 2, 3, 4]]  # within trip 1, rows paired by position
    assert grade(GNSS, swapped, answers) > 0
    assert math.isnan(
        grade(GNSS, answers.assign(LatitudeDegrees=[37.0, np.nan, 37.002, 36, 36]), answers)
    )
    with pytest.raises(InvalidSubmissionError, match="for each 'tripId'"):
        grade(GNSS, answers.assign(tripId=["d-1-P4"] * 4 + ["d-2-P5"]), answers)
    with pytest.raises(InvalidSubmissionError, match="same number of rows"):
        grade(GNSS, answers.iloc[:-1], answers)


# --- us-patent-phrase-to-phrase-matching: Pearson --------------------------------------------

PATENT_ANSWERS = pd.DataFrame(
    {
        "id": ["a", "b", "c", "d"],
        "anchor": "x",
        "target": "y",
        "context": "H04",
        "score": [0.0, 0.25, 0.5, 1.0],
    }
)


def test_patent_perfect_constant_nan_and_checks() -> None:
    answers = PATENT_ANSWERS
    submission = answers[["id", "score"]]
    assert grade(PATENT, submission.iloc[::-1], answers) == pytest.approx(1.0)
    constant = verdict(PATENT, submission.assign(score=0), answers)
    assert constant is not None and math.isnan(constant)
    assert verdict(PATENT, submission.assign(score="similar"), answers) is None
    with pytest.raises(InvalidSubmissionError, match="same number of rows"):
        grade(PATENT, submission.iloc[:-1], answers)
    with pytest.raises(InvalidSubmissionError, match="Ids mismatch"):
        grade(PATENT, submission.assign(id=["a", "b", "c", "e"]), answers)
