"""jigsaw-unintended-bias-in-toxicity-classification: Jigsaw's bias-weighted AUC.

Score = 0.25 * overall AUC + 0.25 * each of three power means (p = -5, over the 9 identities
Kaggle scores) of per-identity AUCs: the subgroup AUC (comments that mention the identity),
BPSN (non-toxic comments that mention it and toxic ones that do not) and BNSP (the reverse).

Upstream's quirks, kept:
- Predictions are cut to 0/1 at 0.5 before any AUC is taken (so the AUCs are of a binary
  prediction, and a ranking finer than that earns nothing); a blank prediction becomes 0, and
  so does a missing identity value in the answers (most test rows have none).
- No length check: the sorted ``id`` arrays must be equal, position by position.
- The answers' ``toxicity`` column is accepted in place of ``prediction`` (the answers file
  grades as a submission); a submission with both has two ``toxicity`` columns and fails.
- A subset with only one class makes ``roc_auc_score`` fail (scikit-learn 1.5, upstream's
  pin; later versions warn and return NaN), and so the whole grade: the same rule is applied
  here on any version. An AUC of 0 makes its power mean 0 (numpy's ``0.0 ** -5`` is inf).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score

from . import InvalidSubmissionError
from ._helpers import ids_differ, require

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
IDENTITIES = [
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
POWER = -5
WEIGHT = 0.25


def at_half(values: pd.Series) -> np.ndarray:
    """Upstream's ``apply(lambda x: 1 if x >= 0.5 else 0)``: NaN gives 0, text raises."""
    if pd.api.types.is_numeric_dtype(values.dtype) or pd.api.types.is_bool_dtype(values.dtype):
        return (values.to_numpy() >= 0.5).astype(np.int64)
    return np.array([1 if x >= 0.5 else 0 for x in values], dtype=np.int64)


def binary_auc(y_true: np.ndarray, y_score: np.ndarray) -> np.float64:
    """``roc_auc_score`` as scikit-learn 1.5 gives it: an error for a single class, and a
    numpy float (whose power of -5 at 0 is inf, not an error)."""
    if len(np.unique(y_true)) != 2:
        raise ValueError(
            "Only one class present in y_true. ROC AUC score is not defined in that case."
        )
    return np.float64(roc_auc_score(y_true, y_score))


def power_mean(scores: list[np.float64]) -> np.float64:
    return (sum(s**POWER for s in scores) / len(IDENTITIES)) ** (1 / POWER)


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if "id" not in submission.columns:
        raise InvalidSubmissionError("Submission DataFrame must have an 'id' column.")
    if "prediction" not in submission.columns and "toxicity" not in submission.columns:
        raise InvalidSubmissionError("Submission DataFrame must have a 'prediction' column.")
    require("id" in answers.columns, "Answers DataFrame must have an 'id' column.")
    require("toxicity" in answers.columns, "Answers DataFrame must have a 'toxicity' column.")
    submission = submission.sort_values("id")
    answers = answers.sort_values("id")
    if len(submission) != len(answers) and len(submission) != 1:  # numpy's refusal, upstream
        raise ValueError(
            "operands could not be broadcast together with shapes "
            f"({len(submission)},) ({len(answers)},)"
        )
    if ids_differ(submission["id"], answers["id"]):
        raise InvalidSubmissionError("IDs in the submission and answers DataFrames do not match.")
    for identity in IDENTITIES:
        require(identity in answers.columns, f"Answers DataFrame must have an '{identity}' column.")
    if "prediction" in submission.columns and "toxicity" in submission.columns:
        raise ValueError("The truth value of a Series is ambiguous (two 'toxicity' columns)")

    predicted = at_half(submission["prediction" if "prediction" in submission else "toxicity"])
    toxic = at_half(answers["toxicity"])
    overall = binary_auc(toxic, predicted)
    subgroup, bpsn, bnsp = [], [], []
    for identity in IDENTITIES:
        mentioned = at_half(answers[identity]) == 1
        subgroup.append(binary_auc(toxic[mentioned], predicted[mentioned]))
        keep = (mentioned & (toxic == 0)) | (~mentioned & (toxic == 1))
        bpsn.append(binary_auc(toxic[keep], predicted[keep]))
        keep = (mentioned & (toxic == 1)) | (~mentioned & (toxic == 0))
        bnsp.append(binary_auc(toxic[keep], predicted[keep]))
    means = [power_mean(scores) for scores in (subgroup, bpsn, bnsp)]
    return WEIGHT * overall + sum(WEIGHT * mean for mean in means)
