"""Grading shared by the two text-normalization competitions: accuracy of ``after`` as text."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score

from ._helpers import accuracy_inputs


def as_text(values: np.ndarray) -> np.ndarray:
    """Every value as its ``str``; a missing value becomes ``"nan"`` (pandas 2's ``astype(str)``)."""
    return np.asarray(values, dtype=object).astype(str)


def grade_text_accuracy(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    y_true, y_pred = accuracy_inputs(submission, answers, target="after", id_col="id")
    return accuracy_score(y_true=as_text(y_true), y_pred=as_text(y_pred))
