"""Graders of the Lite competitions that are not CPU-only, on tiny hand-built frames in the
upstream prepared schema: a perfect submission, a constant guess, and invalid submissions."""

from __future__ import annotations

import io
import math
import re

import numpy as np
import pandas as pd
import pytest

from bench_adapters.mlebench.graders import InvalidSubmissionError, get_grader
from bench_adapters.mlebench.graders.dog_breed_identification import BREEDS
from bench_adapters.mlebench.graders.leaf_classification import SPECIES
from bench_adapters.mlebench.graders.ranzcr_clip_catheter_line_classification import (
    CLASSES as RANZCR_GRADED,
)

LABELS = np.array([0, 1, 1, 0, 1, 0])  # both classes, for every AUC


def exact(message: str) -> str:
    """A ``match=`` pattern for exactly this message."""
    return f"^{re.escape(message)}$"


def csv_roundtrip(frame: pd.DataFrame) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(frame.to_csv(index=False)))


def grade(competition_id: str, submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    spec = get_grader(competition_id)
    assert spec is not None
    return spec.grade(csv_roundtrip(submission), csv_roundtrip(answers))


def one_hot(ids: list[str], classes: list[str], labels: list[int]) -> pd.DataFrame:
    matrix = np.eye(len(classes), dtype=np.int64)[labels]
    return pd.concat([pd.DataFrame({"id": ids}), pd.DataFrame(matrix, columns=classes)], axis=1)


def uniform(answers: pd.DataFrame, classes: list[str]) -> pd.DataFrame:
    return answers.assign(**{name: 1 / len(classes) for name in classes})


# --- single-column ROC-AUC through the shared auroc checks --------------------------------

AUROC: dict[str, tuple[str, str, list[object]]] = {
    "aerial-cactus-identification": ("id", "has_cactus", [f"{k:032x}.jpg" for k in range(6)]),
    "histopathologic-cancer-detection": ("id", "label", [f"{k:040x}" for k in range(6)]),
    "mlsp-2013-birds": ("Id", "Probability", [r * 100 + s for r in (1, 7) for s in (0, 5, 18)]),
    "random-acts-of-pizza": (
        "request_id",
        "requester_received_pizza",
        [f"t3_{k}x" for k in range(6)],
    ),
    "siim-isic-melanoma-classification": (
        "image_name",
        "target",
        [f"ISIC_{k:07d}" for k in range(6)],
    ),
    "the-icml-2013-whale-challenge-right-whale-redux": (
        "clip",
        "probability",
        [f"20090330_{k:06d}_{k}s.aif" for k in range(6)],
    ),
    "detecting-insults-in-social-commentary": (
        "Comment",
        "Insult",
        ['"you are kind"', '"you idiot"', '"what a fool"', '"nice day"', '"moron"', '"thanks"'],
    ),
}


def auroc_answers(competition_id: str) -> pd.DataFrame:
    id_col, target, ids = AUROC[competition_id]
    answers = pd.DataFrame({id_col: ids, target: LABELS})
    if competition_id == "detecting-insults-in-social-commentary":
        answers = answers.assign(Date="20120603163526Z", Usage="PrivateTest")
        answers = answers[["Insult", "Date", "Comment", "Usage"]]
    if competition_id == "random-acts-of-pizza":
        answers[target] = answers[target].astype(bool)
    return answers


@pytest.mark.parametrize("competition_id", sorted(AUROC))
def test_auroc_grader_perfect_and_constant(competition_id: str) -> None:
    _, target, _ = AUROC[competition_id]
    answers = auroc_answers(competition_id)
    perfect = answers.drop(columns=["Usage"], errors="ignore")
    assert grade(competition_id, perfect, answers) == 1.0
    reversed_order = perfect.iloc[::-1]
    assert grade(competition_id, reversed_order, answers) == 1.0
    assert grade(competition_id, perfect.assign(**{target: 0.5}), answers) == 0.5


@pytest.mark.parametrize("competition_id", sorted(AUROC))
def test_auroc_grader_rejects_invalid_submissions(competition_id: str) -> None:
    id_col, target, _ = AUROC[competition_id]
    answers = auroc_answers(competition_id)
    good = answers[[id_col, target]].astype({target: float})
    cases = {
        f"Submission should have an {id_col} column": good.drop(columns=[id_col]),
        f"Submission should have a {target} column": good.drop(columns=[target]),
        "Submission and answers should have the same number of rows": good.iloc[:-1],
        f"Submission {target} column should contain probabilities": good.assign(**{target: 1.01}),
        f"Expected {target} column to be numeric": good.assign(**{target: "likely"}),
        f"Submission and answers should have the same {id_col} values": pd.concat(
            [good.iloc[:-1], good.iloc[:1]]
        ),
    }
    for message, submission in cases.items():
        with pytest.raises(InvalidSubmissionError, match=message):
            grade(competition_id, submission, answers)


# --- multi-column ROC-AUC ---------------------------------------------------------------------

JIGSAW = "jigsaw-toxic-comment-classification-challenge"
JIGSAW_CLASSES = ["toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate"]


def jigsaw_answers() -> pd.DataFrame:
    labels = {name: np.roll(LABELS, k) for k, name in enumerate(JIGSAW_CLASSES)}
    answers = pd.DataFrame({"id": [f"{k:016x}" for k in range(6)], **labels})
    unscored = pd.DataFrame({"id": ["ffff0000ffff0000"], **{name: [-1] for name in JIGSAW_CLASSES}})
    return pd.concat([answers, unscored], ignore_index=True)


def test_jigsaw_perfect_ignores_unscored_rows_and_constant_is_half() -> None:
    answers = jigsaw_answers()
    perfect = answers.astype(dict.fromkeys(JIGSAW_CLASSES, float))
    perfect.loc[6, JIGSAW_CLASSES] = 0.99  # the row labelled -1 is not scored
    assert grade(JIGSAW, perfect, answers) == 1.0
    assert grade(JIGSAW, answers.assign(**dict.fromkeys(JIGSAW_CLASSES, 0.5)), answers) == 0.5


@pytest.mark.filterwarnings("ignore:Boolean Series key will be reindexed")
def test_jigsaw_rejects_invalid_submissions() -> None:
    answers = jigsaw_answers()
    with pytest.raises(InvalidSubmissionError, match="Submission is missing the column: id"):
        grade(JIGSAW, answers.drop(columns=["id"]), answers)
    with pytest.raises(InvalidSubmissionError, match="missing the following columns"):
        grade(JIGSAW, answers.drop(columns=["threat"]), answers)
    for broken in (answers.assign(extra=0.5), answers.assign(id=answers["id"] + "z"), answers[:-1]):
        with pytest.raises(Exception) as raised:  # left to pandas/sklearn/asserts, as upstream
            grade(JIGSAW, broken, answers)
        assert not isinstance(raised.value, InvalidSubmissionError)


def test_jigsaw_scores_a_swapped_column_order_misaligned() -> None:
    answers = jigsaw_answers()
    swapped = answers[["id", *reversed(JIGSAW_CLASSES)]]
    assert grade(JIGSAW, swapped, answers) < 1.0


PLANT = "plant-pathology-2020-fgvc7"
PLANT_CLASSES = ["healthy", "multiple_diseases", "rust", "scab"]


def test_plant_pathology_perfect_constant_and_invalid() -> None:
    answers = one_hot([f"Test_{k}" for k in range(8)], PLANT_CLASSES, [0, 1, 2, 3, 3, 2, 1, 0])
    answers = answers.rename(columns={"id": "image_id"})
    assert grade(PLANT, answers.iloc[::-1], answers) == 1.0
    assert grade(PLANT, answers.assign(**dict.fromkeys(PLANT_CLASSES, 0.25)), answers) == 0.5
    with pytest.raises(
        InvalidSubmissionError, match=r"Expected submission to have 7 rows but got 8"
    ):
        grade(PLANT, answers, answers.iloc[:-1])
    with pytest.raises(InvalidSubmissionError, match=r"Expected submission to have columns \["):
        grade(PLANT, answers.assign(extra=0), answers)
    foreign = answers.assign(image_id=answers["image_id"] + "x")
    with pytest.raises(InvalidSubmissionError, match="must have matching 'image_id' columns"):
        grade(PLANT, foreign, answers)


RANZCR = "ranzcr-clip-catheter-line-classification"
RANZCR_ALL = [*RANZCR_GRADED, "CVC - Normal", "Swan Ganz Catheter Present"]


def ranzcr_answers() -> pd.DataFrame:
    labels = {name: np.roll(LABELS, k) for k, name in enumerate(RANZCR_ALL)}
    uids = [f"1.2.826.0.1.3680043.8.498.{k}" for k in range(6)]
    return pd.DataFrame({"StudyInstanceUID": uids, **labels, "PatientID": "ec89415d1"})


def test_ranzcr_grades_nine_classes_only() -> None:
    answers = ranzcr_answers()
    submission = answers[["StudyInstanceUID", *RANZCR_GRADED]]
    assert len(RANZCR_GRADED) == 9
    assert grade(RANZCR, submission, answers) == 1.0
    assert grade(RANZCR, submission.assign(**dict.fromkeys(RANZCR_GRADED, 0.5)), answers) == 0.5


def test_ranzcr_rejects_invalid_submissions() -> None:
    answers = ranzcr_answers()
    submission = answers[["StudyInstanceUID", *RANZCR_GRADED]].astype(
        dict.fromkeys(RANZCR_GRADED, float)
    )
    missing = submission.drop(columns=["CVC - Borderline"])
    with pytest.raises(
        InvalidSubmissionError, match=exact("Class CVC - Borderline is not in the submission.")
    ):
        grade(RANZCR, missing, answers)
    out_of_range = submission.assign(**{"NGT - Normal": 2.0})
    with pytest.raises(
        InvalidSubmissionError, match="NGT - Normal column should contain probabilities"
    ):
        grade(RANZCR, out_of_range, answers)


# --- log loss ---------------------------------------------------------------------------------

DOGS, LEAF, SPOOKY = (
    "dog-breed-identification",
    "leaf-classification",
    "spooky-author-identification",
)
SPOOKY_CLASSES = ["EAP", "HPL", "MWS"]


def test_dog_breed_perfect_uniform_and_invalid() -> None:
    answers = one_hot([f"{k:032x}" for k in range(4)], BREEDS, [0, 5, 119, 5])
    assert grade(DOGS, answers.iloc[::-1], answers) < 1e-12
    # The uniform sample submission scores ln(120) on any answers (upstream's 4.78749).
    assert round(grade(DOGS, uniform(answers, BREEDS), answers), 5) == 4.78749
    with pytest.raises(InvalidSubmissionError, match="Submission must have columns for all dogs"):
        grade(DOGS, answers.drop(columns=["pug"]), answers)
    with pytest.raises(InvalidSubmissionError, match="should sum to one"):
        grade(DOGS, answers.assign(pug=1), answers)
    with pytest.raises(InvalidSubmissionError, match="should be the same length as the answers"):
        grade(DOGS, answers.iloc[:-1], answers)


def test_leaf_perfect_uniform_and_invalid() -> None:
    answers = one_hot([str(k) for k in (4, 7, 9)], SPECIES, [0, 50, 98])
    assert grade(LEAF, answers, answers) < 1e-12
    assert round(grade(LEAF, uniform(answers, SPECIES), answers), 5) == 4.59512  # ln(99)
    with pytest.raises(
        InvalidSubmissionError, match="must have an 'id' column and a column for each"
    ):
        grade(LEAF, answers.assign(extra=0), answers)
    negative = answers.assign(Acer_Mono=-0.5, Acer_Opalus=answers["Acer_Opalus"] + 0.5)
    with pytest.raises(InvalidSubmissionError, match="must be between 0 and 1"):
        grade(LEAF, negative, answers)


def test_spooky_perfect_priors_and_invalid() -> None:
    answers = one_hot(["id27251", "id09612", "id11943", "id02310"], SPOOKY_CLASSES, [0, 1, 2, 0])
    assert grade(SPOOKY, answers, answers) < 1e-12
    priors = answers.assign(EAP=0.4, HPL=0.3, MWS=0.3)
    assert grade(SPOOKY, priors, answers) == pytest.approx(
        -(2 * math.log(0.4) + 2 * math.log(0.3)) / 4
    )
    with pytest.raises(
        InvalidSubmissionError,
        match=r"Submission shape \(4, 5\) does not match answers shape \(4, 4\)\.",
    ):
        grade(SPOOKY, answers.assign(extra=0), answers)
    with pytest.raises(InvalidSubmissionError, match="should sum to one"):
        grade(SPOOKY, answers.assign(EAP=0.5), answers)
    renamed = answers.rename(columns={"MWS": "Shelley"})
    with pytest.raises(
        InvalidSubmissionError, match="missing some columns required by the `answers`"
    ):
        grade(SPOOKY, renamed, answers)


DOGS_VS_CATS = "dogs-vs-cats-redux-kernels-edition"


def test_dogs_vs_cats_perfect_half_and_invalid() -> None:
    answers = pd.DataFrame({"id": np.arange(1, 7), "label": LABELS})
    assert grade(DOGS_VS_CATS, answers.iloc[::-1], answers) < 1e-12
    assert round(grade(DOGS_VS_CATS, answers.assign(label=0.5), answers), 5) == 0.69315
    with pytest.raises(InvalidSubmissionError, match="Submission and answers have different id's"):
        grade(DOGS_VS_CATS, answers.assign(id=answers["id"] + 1), answers)
    with pytest.raises(
        InvalidSubmissionError, match="Submission and answers have different lengths"
    ):
        grade(DOGS_VS_CATS, pd.concat([answers, answers.iloc[:1]]), answers)
    with pytest.raises(InvalidSubmissionError, match="must be between 0 and 1"):
        grade(DOGS_VS_CATS, answers.assign(label=1.5), answers)


# --- other metrics ----------------------------------------------------------------------------

APTOS = "aptos2019-blindness-detection"


def test_aptos_quadratic_kappa_perfect_and_invalid() -> None:
    answers = pd.DataFrame(
        {"id_code": [f"{k:012x}" for k in range(6)], "diagnosis": [0, 1, 2, 3, 4, 2]}
    )
    assert grade(APTOS, answers.iloc[::-1], answers) == pytest.approx(1.0)
    assert grade(APTOS, answers.assign(diagnosis=0), answers) == 0.0
    with pytest.raises(
        InvalidSubmissionError, match="Submission must contain the target column 'diagnosis'"
    ):
        grade(APTOS, answers.drop(columns=["diagnosis"]), answers)
    with pytest.raises(
        InvalidSubmissionError, match="Submission must have the same id_codes as answers"
    ):
        grade(APTOS, answers.iloc[:-1], answers)
    with pytest.raises(InvalidSubmissionError, match="Submission DataFrame should not be empty"):
        grade(APTOS, answers.iloc[:0], answers)


DENOISING = "denoising-dirty-documents"


def test_denoising_rmse_perfect_and_invalid() -> None:
    ids = [f"{image}_{row}_{col}" for image in (1, 12) for row in (1, 2) for col in (1, 2, 10)]
    answers = pd.DataFrame({"id": ids, "value": np.linspace(0, 1, len(ids))})
    assert grade(DENOISING, answers.iloc[::-1], answers) == 0.0
    white = grade(DENOISING, answers.assign(value=1), answers)
    assert white == pytest.approx(math.sqrt(((answers["value"] - 1) ** 2).mean()))
    with pytest.raises(
        InvalidSubmissionError, match="Submission must have float values in the 'value'"
    ):
        grade(DENOISING, answers.assign(value="dark"), answers)
    with pytest.raises(
        InvalidSubmissionError, match=exact("Expected the submission to have 12 rows, but got 11.")
    ):
        grade(DENOISING, answers.iloc[1:], answers)
    with pytest.raises(InvalidSubmissionError, match="same 'id' values as the answers"):
        grade(DENOISING, answers.assign(id=answers["id"] + "_0"), answers)


TEXT_NORMALIZATION = {
    "text-normalization-challenge-english-language": ["twelve", "Dr.", "doctor", "NA", "1", "sil"],
    "text-normalization-challenge-russian-language": [
        "двенадцать",
        "г.",
        "года",
        "nan",
        "1",
        "sil",
    ],
}


@pytest.mark.parametrize("competition_id", sorted(TEXT_NORMALIZATION))
def test_text_normalization_accuracy_compares_text(competition_id: str) -> None:
    after = TEXT_NORMALIZATION[competition_id]
    answers = pd.DataFrame({"id": [f"0_{k}" for k in range(len(after))], "after": after})
    spec = get_grader(competition_id)
    assert spec is not None and spec.sample_submission == "private/sample_submission.csv"
    # "NA"/"nan" read back as missing on both sides and still match, as with pandas 2.
    assert grade(competition_id, answers.iloc[::-1], answers) == 1.0
    one_wrong = answers.assign(after=["x", *after[1:]])
    assert grade(competition_id, one_wrong, answers) == pytest.approx(5 / 6)
    with pytest.raises(InvalidSubmissionError, match="Submission must have a `after` column"):
        grade(competition_id, answers.drop(columns=["after"]), answers)
    with pytest.raises(InvalidSubmissionError, match="Submission must have the same length"):
        grade(competition_id, answers.iloc[:-1], answers)
    with pytest.raises(InvalidSubmissionError, match="Submission and Answers `id`'s do not match"):
        grade(competition_id, answers.assign(id=answers["id"] + "0"), answers)


LITE_ONLY: list[str] = [
    *AUROC,
    JIGSAW,
    PLANT,
    RANZCR,
    DOGS,
    LEAF,
    SPOOKY,
    DOGS_VS_CATS,
    APTOS,
    DENOISING,
    *TEXT_NORMALIZATION,
]


def test_every_lite_only_grader_is_exercised_here() -> None:
    lite = {
        "aerial-cactus-identification",
        "aptos2019-blindness-detection",
        "denoising-dirty-documents",
        "detecting-insults-in-social-commentary",
        "dog-breed-identification",
        "dogs-vs-cats-redux-kernels-edition",
        "histopathologic-cancer-detection",
        "jigsaw-toxic-comment-classification-challenge",
        "leaf-classification",
        "mlsp-2013-birds",
        "plant-pathology-2020-fgvc7",
        "random-acts-of-pizza",
        "ranzcr-clip-catheter-line-classification",
        "siim-isic-melanoma-classification",
        "spooky-author-identification",
        "text-normalization-challenge-english-language",
        "text-normalization-challenge-russian-language",
        "the-icml-2013-whale-challenge-right-whale-redux",
    }
    assert set(LITE_ONLY) == lite
