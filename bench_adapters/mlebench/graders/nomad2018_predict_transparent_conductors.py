"""nomad2018-predict-transparent-conductors: mean of the two column-wise RMSLEs.

Rows are compared by position: upstream neither sorts nor checks ids, so a submission must be
in the answers' row order (id order 1..n) to line up.
"""

from __future__ import annotations

import pandas as pd
from sklearn.metrics import root_mean_squared_log_error

from . import InvalidSubmissionError
from ._helpers import require

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
TARGETS = ("formation_energy_ev_natom", "bandgap_energy_ev")


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    for column in TARGETS:
        require(column in answers.columns, f"Expected '{column}' column in answers")
    for column in TARGETS:
        if column not in submission.columns:
            raise InvalidSubmissionError(f"Expected '{column}' column in submission")
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            f"Expected {len(answers)} rows in submission, got {len(submission)}"
        )
    formation, bandgap = (
        root_mean_squared_log_error(answers[column], submission[column]) for column in TARGETS
    )
    return (formation + bandgap) / 2
