"""mlsp-2013-birds: ROC-AUC over flattened (recording, species) pairs.

Each row is one pair, ``Id = rec_id * 100 + species`` (species 0-18), scored as a single
binary problem on ``Probability``.
"""

from __future__ import annotations

import pandas as pd

from ._helpers import auroc_score

ANSWERS = "answers.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    return auroc_score(submission, answers, id_col="Id", target="Probability")
