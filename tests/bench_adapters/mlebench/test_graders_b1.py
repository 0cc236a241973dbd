"""Graders of batch B1 (accuracy, AUC and kin) on small hand-built frames in upstream's
prepared schema: a perfect submission, a constant guess, and invalid submissions, each
through a CSV round trip as the harness reads them."""

from __future__ import annotations

import io
import re

import numpy as np
import pandas as pd
import pytest

from bench_adapters.mlebench.graders import InvalidSubmissionError, get_grader


def exact(message: str) -> str:
    return f"^{re.escape(message)}$"


def csv_roundtrip(frame: pd.DataFrame) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(frame.to_csv(index=False)))


def grade(competition_id: str, submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    spec = get_grader(competition_id)
    assert spec is not None, competition_id
    return spec.grade(csv_roundtrip(submission), csv_roundtrip(answers))


# --- accuracy through the shared preparation ------------------------------------------------

ACCURACY = {  # id column, target, ids, labels
    "cassava-leaf-disease-classification": (
        "image_id",
        "label",
        [f"{k}.jpg" for k in (1000015157, 1000201771, 100042118, 1000723321)],
        [0, 3, 1, 4],
    ),
    "cdiscount-image-classification-challenge": (
        "_id",
        "category_id",
        [3, 17, 42, 1001],
        [1000010653, 1000004079, 1000015309, 1000010653],
    ),
    "iwildcam-2020-fgvc7": (
        "Id",
        "Category",
        [f"8b02698a-21bc-11ea-a13a-13734906{k:04d}" for k in range(4)],
        [0, 73, 372, 0],
    ),
}


def accuracy_answers(competition_id: str) -> pd.DataFrame:
    id_col, target, ids, labels = ACCURACY[competition_id]
    return pd.DataFrame({id_col: ids, target: labels})


@pytest.mark.parametrize("competition_id", sorted(ACCURACY))
def test_accuracy_perfect_shuffled_constant_and_float_labels(competition_id: str) -> None:
    _, target, _, labels = ACCURACY[competition_id]
    answers = accuracy_answers(competition_id)
    assert grade(competition_id, answers.iloc[::-1], answers) == 1.0
    constant = answers.assign(**{target: labels[1]})
    assert grade(competition_id, constant, answers) == 0.25
    as_floats = answers.astype({target: float})  # 3.0 matches 3, as upstream
    assert grade(competition_id, as_floats, answers) == 1.0
    text = answers.astype({target: object})
    text.loc[0, target] = "oops"  # the column reads back as text: every label is wrong
    assert grade(competition_id, text, answers) == 0.0


@pytest.mark.filterwarnings("ignore:invalid value encountered in cast:RuntimeWarning")
@pytest.mark.parametrize("competition_id", sorted(ACCURACY))
def test_accuracy_rejects_invalid_submissions(competition_id: str) -> None:
    id_col, target, _, _ = ACCURACY[competition_id]
    answers = accuracy_answers(competition_id)
    cases = {
        "Submission must have the same length as the answers.": answers.iloc[:-1],
        f"Submission must have a `{target}` column": answers.drop(columns=[target]),
        f"Submission must have a `{id_col}` column": answers.drop(columns=[id_col]),
        f"Submission and Answers `{id_col}`'s do not match": pd.concat(
            [answers.iloc[:-1], answers.iloc[:1]]
        ),
    }
    for message, submission in cases.items():
        with pytest.raises(InvalidSubmissionError, match=exact(message)):
            grade(competition_id, submission, answers)
    with pytest.raises(ValueError, match="NaN"):  # a blank label fails, as upstream
        grade(competition_id, answers.assign(**{target: np.nan}), answers)


# --- alaska2: weighted AUC --------------------------------------------------------------------

ALASKA = "alaska2-image-steganalysis"


def alaska_answers() -> pd.DataFrame:
    return pd.DataFrame({"Id": [f"{k:04d}.jpg" for k in range(1, 9)], "Label": [0, 1] * 4})


def test_alaska_weighted_auc_perfect_constant_inverted_and_unbounded() -> None:
    answers = alaska_answers()
    assert grade(ALASKA, answers.iloc[::-1], answers) == 1.0
    # A constant: the diagonal, whose lower band (twice the weight) holds 0.32 of its 0.4.
    assert grade(ALASKA, answers.assign(Label=0), answers) == pytest.approx((2 * 0.32 + 0.18) / 1.4)
    assert grade(ALASKA, answers.assign(Label=1 - answers["Label"]), answers) == 0.0
    scaled = answers.assign(Label=answers["Label"] * 100 - 7)  # no range check: ranks only
    assert grade(ALASKA, scaled, answers) == 1.0


def test_alaska_inserts_the_cut_at_tpr_04() -> None:
    """Four positives: TPR steps 0, 0.25, 0.5... the cut at 0.4 falls inside a step, so the
    point (FPR interpolated, 0.4) is inserted and each band gets its own share."""
    answers = pd.DataFrame(
        {"Id": [f"{k}.jpg" for k in range(8)], "Label": [1, 1, 1, 1, 0, 0, 0, 0]}
    )
    scores = pd.DataFrame({"Id": answers["Id"], "Label": [0.9, 0.5, 0.3, 0.1, 0.6, 0.4, 0.2, 0.0]})
    # ROC points (FPR, TPR): (0,0) (0,.25) (.25,.25) (.25,.5) (.5,.5) (.5,.75) (.75,.75) (.75,1) (1,1)
    # Lower band [0, 0.4]: the curve plus the inserted (0.25, 0.4), closed at FPR 1.
    lower = 0.25 * 0.25 + 0.75 * 0.4
    # Upper band [0.4, 1], shifted down by 0.4.
    upper = 0.25 * 0.0 + 0.25 * 0.1 + 0.25 * 0.35 + 0.25 * 0.6
    assert grade(ALASKA, scores, answers) == pytest.approx((2 * lower + upper) / 1.4)


def test_alaska_rejects_invalid_submissions() -> None:
    answers = alaska_answers()
    cases = {
        "Submission and answers must have the same length": answers.iloc[:-1],
        "Submission must have an 'Id' column": answers.drop(columns=["Id"]),
        "Submission must have a 'Label' column": answers.drop(columns=["Label"]),
        "Submission and answers must have the same ids": answers.assign(Id="0001.jpg"),
        "Labels in submission must be numbers": answers.assign(Label="likely"),
        "Submission cannot contain NaNs": answers.assign(Label=[np.nan, *[0.5] * 7]),
    }
    for message, submission in cases.items():
        with pytest.raises(InvalidSubmissionError, match=exact(message)):
            grade(ALASKA, submission, answers)


# --- ROC-AUC through the shared preparation ------------------------------------------------

AUROC = {  # id column, target, ids (read back as numbers where upstream's are)
    "rsna-miccai-brain-tumor-radiogenomic-classification": (
        "BraTS21ID",
        "MGMT_value",
        ["00000", "00002", "00003", "00005", "00006", "00008"],
    ),
    "seti-breakthrough-listen": (
        "id",
        "target",
        [
            "0000799a2b2c42d",
            "00042890562ff68",
            "005364cdcb8e5b9",
            "0007a5a46901c56",
            "0009283e145448e",
            "000a5ba1d5b4d6b",
        ],
    ),
}
AUC_LABELS = [0, 1, 1, 0, 1, 0]


@pytest.mark.parametrize("competition_id", sorted(AUROC))
def test_auroc_perfect_shuffled_and_constant(competition_id: str) -> None:
    id_col, target, ids = AUROC[competition_id]
    answers = pd.DataFrame({id_col: ids, target: AUC_LABELS})
    assert grade(competition_id, answers.iloc[::-1].astype({target: float}), answers) == 1.0
    assert grade(competition_id, answers.assign(**{target: 0.5}), answers) == 0.5


@pytest.mark.parametrize("competition_id", sorted(AUROC))
def test_auroc_rejects_invalid_submissions(competition_id: str) -> None:
    id_col, target, ids = AUROC[competition_id]
    answers = pd.DataFrame({id_col: ids, target: AUC_LABELS})
    good = answers.astype({target: float})
    cases = {
        f"Submission should have an {id_col} column": good.drop(columns=[id_col]),
        f"Submission should have a {target} column": good.drop(columns=[target]),
        "Submission and answers should have the same number of rows": good.iloc[:-1],
        f"Submission {target} column should contain probabilities": good.assign(**{target: 1.5}),
        f"Expected {target} column to be numeric": good.assign(**{target: "likely"}),
        f"Submission and answers should have the same {id_col} values": pd.concat(
            [good.iloc[:-1], good.iloc[:1]]
        ),
    }
    for message, submission in cases.items():
        with pytest.raises(InvalidSubmissionError, match=re.escape(message)):
            grade(competition_id, submission, answers)
    with pytest.raises(ValueError, match="NaN"):  # passes the range check, fails in sklearn
        grade(competition_id, good.assign(**{target: [np.nan, *[0.5] * 5]}), answers)


# --- inaturalist-2019: top-1 error --------------------------------------------------------------

INAT = "inaturalist-2019-fgvc6"


def inat_answers() -> pd.DataFrame:
    return pd.DataFrame({"id": [268243, 268244, 268245, 268246], "predicted": [400, 12, 400, 7]})


def test_inat_error_perfect_constant_and_first_guess_of_a_list() -> None:
    answers = inat_answers()
    assert grade(INAT, answers.iloc[::-1], answers) == 0.0
    assert grade(INAT, answers.assign(predicted=654), answers) == 1.0
    assert grade(INAT, answers.assign(predicted=400), answers) == 0.5
    guesses = answers.assign(predicted=["400 12 7", "12", "7 400", "7 7 7 7 7"])
    assert grade(INAT, guesses, answers) == 0.25  # only the first token counts


def test_inat_rejects_invalid_submissions() -> None:
    answers = inat_answers()
    cases = {
        "Submission length 3 != answers length 4": answers.iloc[:-1],
        "Submission must have 'id' and 'predicted' columns": answers.drop(columns=["predicted"]),
        "Submission and answers have mismatched 'id' columns": answers.assign(id=[1, 2, 3, 4]),
    }
    for message, submission in cases.items():
        with pytest.raises(InvalidSubmissionError, match=exact(message)):
            grade(INAT, submission, answers)
    # Left to Python, as upstream: a float column has no ``split``; a word is no integer.
    with pytest.raises(AttributeError):
        grade(INAT, answers.astype({"predicted": float}), answers)
    with pytest.raises(AttributeError):
        grade(INAT, answers.assign(predicted=[400, None, 400, 7]), answers)
    with pytest.raises(ValueError):
        grade(INAT, answers.assign(predicted=["fox", "12", "400", "7"]), answers)


# --- nfl-player-contact-detection: Matthews correlation -----------------------------------------

NFL = "nfl-player-contact-detection"


def nfl_answers() -> pd.DataFrame:
    ids = [
        "58168_003392_0_38590_43854",
        "58168_003392_0_38590_G",
        "58168_003392_1_38590_43854",
        "58168_003392_1_38590_G",
        "58168_003392_2_38590_43854",
        "58168_003392_2_43854_G",
    ]
    return pd.DataFrame(
        {
            "contact_id": ids,
            "game_play": "58168_003392",
            "datetime": "2020-09-11T03:01:48.100Z",
            "step": [0, 0, 1, 1, 2, 2],
            "nfl_player_id_1": [38590, 38590, 38590, 38590, 38590, 43854],
            "nfl_player_id_2": ["43854", "G", "43854", "G", "43854", "G"],
            "contact": [0, 1, 1, 0, 1, 0],
        }
    )


def test_nfl_mcc_perfect_inverted_and_constant() -> None:
    answers = nfl_answers()
    submission = answers[["contact_id", "contact"]]
    assert grade(NFL, submission.iloc[::-1], answers) == 1.0
    assert grade(NFL, submission.assign(contact=1 - submission["contact"]), answers) == -1.0
    assert grade(NFL, submission.assign(contact=0), answers) == 0.0


def test_nfl_rejects_invalid_submissions() -> None:
    answers = nfl_answers()
    submission = answers[["contact_id", "contact"]]
    repeated = pd.concat([submission, submission.iloc[:1]])  # the same ids, one row more
    cases = {
        "Submission must have columns: contact_id, contact": submission.drop(columns=["contact"]),
        "Submission contact_id's inconsistent with answers contact_id's": submission.iloc[:-1],
        "Submission and answers have different lengths: submission has 7 samples, answers "
        "has 6 samples": repeated,
    }
    for message, frame in cases.items():
        with pytest.raises(InvalidSubmissionError, match=exact(message)):
            grade(NFL, frame, answers)
    with pytest.raises(ValueError):  # probabilities: left to scikit-learn, as upstream
        grade(NFL, submission.assign(contact=0.7), answers)


# --- jigsaw-unintended-bias: bias-weighted AUC --------------------------------------------------

JIGSAW = "jigsaw-unintended-bias-in-toxicity-classification"
SCORED = [
    "male",
    "female",
    "homosexual_gay_or_lesbian",
    "christian",
    "jewish",
    "muslim",
    "black",
    "white",
    "psychiatric_or_mental_illness",
]


def jigsaw_answers() -> pd.DataFrame:
    """Four comments per scored identity: toxic and not, mentioning it (share 0.8) or not
    (blank, as most test rows are)."""
    rows = []
    for identity in SCORED:
        for toxicity, mentioned in ((0.9, True), (0.1, True), (0.7, False), (0.0, False)):
            row: dict[str, object] = {"id": 7_000_000 + len(rows), "comment_text": "some words"}
            row["toxicity"] = toxicity
            row.update(
                {name: (0.8 if mentioned and name == identity else np.nan) for name in SCORED}
            )
            rows.append(row)
    return pd.DataFrame(rows)


def test_jigsaw_perfect_constant_and_the_cut_at_half() -> None:
    answers = jigsaw_answers()
    perfect = answers[["id"]].assign(prediction=answers["toxicity"])
    assert grade(JIGSAW, perfect.iloc[::-1], answers) == 1.0
    assert grade(JIGSAW, perfect.assign(prediction=0.0), answers) == 0.5
    # Predictions are cut at 0.5 before any AUC: the order above or below it is lost.
    coarse = perfect.assign(prediction=np.where(answers["toxicity"] >= 0.5, 0.51, 0.49))
    assert grade(JIGSAW, coarse, answers) == 1.0
    blanks = perfect.assign(prediction=np.where(answers["toxicity"] >= 0.5, 1.0, np.nan))
    assert grade(JIGSAW, blanks, answers) == 1.0  # a blank counts as 0
    # The answers themselves grade as a submission (``toxicity`` stands for ``prediction``).
    assert grade(JIGSAW, answers, answers) == 1.0


@pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning")
def test_jigsaw_an_identity_scored_backwards_zeroes_its_power_means() -> None:
    answers = jigsaw_answers()
    flipped = answers["toxicity"] >= 0.5
    mentions_male = answers["male"] >= 0.5
    flipped[mentions_male] = ~flipped[mentions_male]  # every "male" comment predicted wrong
    submission = answers[["id"]].assign(prediction=flipped.astype(float))
    # Its subgroup AUC is 0, and 0 ** -5 is inf: the subgroup power mean drops to 0.
    score = grade(JIGSAW, submission, answers)
    assert 0 < score < 0.75


def test_jigsaw_rejects_invalid_submissions() -> None:
    answers = jigsaw_answers()
    good = answers[["id"]].assign(prediction=answers["toxicity"])
    cases = {
        "Submission DataFrame must have an 'id' column.": good.drop(columns=["id"]),
        "Submission DataFrame must have a 'prediction' column.": good.drop(columns=["prediction"]),
        "IDs in the submission and answers DataFrames do not match.": good.assign(
            id=good["id"] + 1
        ),
    }
    for message, submission in cases.items():
        with pytest.raises(InvalidSubmissionError, match=exact(message)):
            grade(JIGSAW, submission, answers)
    for broken in (
        good.iloc[:-1],  # no length check upstream: numpy refuses to compare the ids
        good.assign(toxicity=0.5),  # two columns named ``toxicity`` after the rename
        good.assign(prediction="toxic"),  # text cannot be compared with 0.5
    ):
        with pytest.raises((ValueError, TypeError)):
            grade(JIGSAW, broken, answers)


def test_jigsaw_an_identity_with_one_class_fails_as_under_upstreams_scikit_learn() -> None:
    answers = jigsaw_answers()
    answers.loc[answers["male"] >= 0.5, "toxicity"] = 0.0  # no toxic comment mentions "male"
    submission = answers[["id"]].assign(prediction=answers["toxicity"])
    with pytest.raises(ValueError, match="Only one class present in y_true"):
        grade(JIGSAW, submission, answers)


# --- rsna-breast-cancer-detection: probabilistic F1 -------------------------------------------

BREAST = "rsna-breast-cancer-detection"


def breast_answers() -> pd.DataFrame:
    ids = [f"{p}_{side}" for p in (10006, 10011, 10025, 10038) for side in "LR"]
    return pd.DataFrame({"prediction_id": ids, "cancer": [0, 1, 0, 0, 0, 0, 1, 0]})


def test_breast_pf1_perfect_constant_and_clipping() -> None:
    answers = breast_answers()
    assert grade(BREAST, answers.iloc[::-1], answers) == 1.0
    prevalence, c = 0.25, 0.4  # constant c: precision = prevalence, recall = c
    constant = answers.assign(cancer=c)
    assert grade(BREAST, constant, answers) == pytest.approx(2 * prevalence * c / (prevalence + c))
    scaled = answers.assign(cancer=answers["cancer"] * 7 - 3)  # clipped to [0, 1]
    assert grade(BREAST, scaled, answers) == 1.0


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
def test_breast_upstream_arithmetic_of_zeros_and_blanks() -> None:
    answers = breast_answers()
    assert grade(BREAST, answers.assign(cancer=0), answers) == 0  # 0/0 is NaN under numpy
    blank = answers.assign(cancer=[np.nan, *[0.5] * 7])
    assert grade(BREAST, blank, answers) == 0  # a NaN sum: the precision is not above 0
    with pytest.raises(ZeroDivisionError):  # every prediction negative: Python's 0 / 0
        grade(BREAST, answers.assign(cancer=-0.5), answers)
    with pytest.raises(ZeroDivisionError):  # answers without a cancer
        grade(BREAST, answers, answers.assign(cancer=0))


def test_breast_rejects_invalid_submissions() -> None:
    answers = breast_answers()
    cases = {
        "prediction_id not in submission": answers.drop(columns=["prediction_id"]),
        "cancer not in submission": answers.drop(columns=["cancer"]),
        "submission and answers have different lengths": answers.iloc[:-1],
        "prediction_id not aligned": answers.assign(prediction_id="10006_L"),
    }
    for message, submission in cases.items():
        with pytest.raises(InvalidSubmissionError, match=exact(message)):
            grade(BREAST, submission, answers)
    with pytest.raises(TypeError):  # text cannot be clipped, as upstream
        grade(BREAST, answers.assign(cancer="high"), answers)
