"""smartphone-decimeter-2022: mean over trips of the mean of the 50th and 95th percentiles of
the horizontal error (metres, haversine on a 6,371 km sphere).

The submission holds ``tripId, UnixTimeMillis, LatitudeDegrees, LongitudeDegrees`` with as
many rows as the answers and, trip by trip, as many rows as the answers' trip. Upstream's
quirks, kept: within a trip, rows are paired by position in file order, and
``UnixTimeMillis`` is never read (neither sorted nor matched); a missing coordinate makes its
trip's percentiles, and so the score, NaN (valid); text coordinates fail (invalid).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import InvalidSubmissionError
from ._helpers import require

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
COLUMNS = ["tripId", "UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees"]
EARTH_RADIUS_M = 6_371_000


def haversine_m(
    lat1: np.ndarray, lng1: np.ndarray, lat2: np.ndarray, lng2: np.ndarray
) -> np.ndarray:
    """Distances in metres between points given in degrees."""
    lat1, lng1, lat2, lng2 = (np.deg2rad(v) for v in (lat1, lng1, lat2, lng2))
    a = (
        np.sin((lat2 - lat1) / 2) ** 2
        + np.cos(lat1) * np.cos(lat2) * np.sin((lng2 - lng1) / 2) ** 2
    )
    return 2 * EARTH_RADIUS_M * np.arcsin(np.sqrt(a))


def trip_score(predicted: pd.DataFrame, truth: pd.DataFrame) -> float:
    d = haversine_m(
        predicted["LatitudeDegrees"].to_numpy(),
        predicted["LongitudeDegrees"].to_numpy(),
        truth["LatitudeDegrees"].to_numpy(),
        truth["LongitudeDegrees"].to_numpy(),
    )
    return float(np.mean([np.quantile(d, 0.50), np.quantile(d, 0.95)]))


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    for column in COLUMNS:
        require(column in answers.columns, f"Answers DataFrame must have a '{column}' column.")
    for column in COLUMNS:
        if column not in submission.columns:
            raise InvalidSubmissionError(f"Submission DataFrame must have a '{column}' column.")
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            "Submission and answers DataFrames must have the same number of rows."
        )
    submitted = submission.groupby("tripId", sort=False).indices
    scores = []
    for trip, rows in answers.groupby("tripId", sort=False).indices.items():
        mine = submitted.get(trip, np.empty(0, dtype=np.intp))
        if len(mine) != len(rows):
            raise InvalidSubmissionError(
                "Submission and answers DataFrames must have the same number of rows for each "
                f"'tripId'.Got {len(mine)} rows in the submission and {len(rows)} rows in the "
                f"answers for tripId {trip}."
            )
        scores.append(trip_score(submission.iloc[mine], answers.iloc[rows]))
    return float(np.mean(scores))
