"""invasive-species-monitoring: ROC-AUC of the ``invasive`` probability, rows matched on ``name``.

Upstream's AUC preparation (``_helpers.auroc_inputs``): ``name`` and ``invasive`` columns, the
answers' length, numeric probabilities in [0, 1], the same names after sorting. As in upstream's
config, the sample submission is read from ``private/`` (agents get the same file zipped in
``public/sample_submission.csv.zip``).
"""

from __future__ import annotations

import pandas as pd

from ._helpers import auroc_score

ANSWERS = "answers.csv"
SAMPLE_SUBMISSION = "private/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    return auroc_score(submission, answers, id_col="name", target="invasive")
