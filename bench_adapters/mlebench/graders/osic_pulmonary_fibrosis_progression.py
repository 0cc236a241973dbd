"""osic-pulmonary-fibrosis-progression: modified Laplace log-likelihood of ``FVC`` with a
``Confidence``, on each test patient's last three measured weeks (higher is better; scores
are negative).

Rows are ``Patient_Week = <Patient>_<week>``; the answers hold every week of a range for each
test patient, ``FVC`` blank where nothing was measured. Per scored row: ``sd = max(Confidence,
70)``, ``delta = min(|FVC - prediction|, 1000)``, ``-sqrt(2) delta / sd - ln(sqrt(2) sd)``;
the score is their mean. Upstream's quirks, kept: only the rows a submission has are scored,
so a partial submission is valid (one without any scored row scores NaN); a blank
``Confidence`` counts as 0 (so 70), a blank ``FVC`` makes the score NaN; every
``Patient_Week`` must be in the answers; duplicated rows make the two columns of unequal
length (an error) unless rows missing elsewhere even them out, when the rows are paired in
upstream's sort order.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import InvalidSubmissionError
from ._helpers import require
from ._sort import upstream_sorted

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
KEY = "Patient_Week"
CHECK_NOTES = {
    "wrong-row-count": "upstream scores only the rows a submission has, so a partial "
    "submission is valid"
}


def laplace_log_likelihood(fvc: np.ndarray, predicted: np.ndarray, confidence: np.ndarray) -> float:
    sd = np.maximum(confidence, 70)
    delta = np.minimum(np.abs(fvc - predicted), 1000)
    return float(np.mean(-np.sqrt(2) * delta / sd - np.log(np.sqrt(2) * sd)))


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    require(KEY in answers.columns, "Answers DataFrame must have a 'Patient_Week' column.")
    require("FVC" in answers.columns, "Answers DataFrame must have a 'FVC' column.")
    require("Patient" in answers.columns, "Answers DataFrame must have a 'Patient' column.")
    for column in (KEY, "FVC", "Confidence"):
        if column not in submission.columns:
            raise InvalidSubmissionError(f"Submission DataFrame must have a '{column}' column.")
    known = submission[KEY].isin(set(answers[KEY]))
    if not known.all():
        unknown = submission[KEY][~known].iloc[0]
        raise InvalidSubmissionError(
            f"Patient_Week {unknown} in submission does not exist in answers"
        )
    for column in ("FVC", "Confidence"):
        if not pd.api.types.is_numeric_dtype(submission[column]):
            raise InvalidSubmissionError(f"{column} column in submission must be numeric.")
    submission = submission.assign(Confidence=submission["Confidence"].fillna(0))

    measured = answers.dropna(subset=["FVC"])
    week = measured[KEY].map(lambda key: int(key.split("_")[-1]))
    latest = measured.assign(Week_Number=week).sort_values("Week_Number").groupby("Patient").tail(3)
    scored = upstream_sorted(latest, KEY)
    submission = upstream_sorted(submission[submission[KEY].isin(scored[KEY])], KEY)
    fvc = scored.loc[scored[KEY].isin(submission[KEY]), "FVC"].to_numpy()
    predicted = submission["FVC"].to_numpy()
    confidence = submission["Confidence"].to_numpy()
    return laplace_log_likelihood(fvc, predicted, confidence)
