"""movie-review-sentiment-analysis-kernels-only: accuracy of ``Sentiment`` (0-4), rows matched
on ``PhraseId``.

Upstream's accuracy preparation (``_helpers.accuracy_inputs``) and scikit-learn 1.5.1's checks
(``_accuracy``): labels are compared unconverted, so ``2.0`` matches ``2``, an unknown label is
just wrong, and one text cell makes every label of the column wrong rather than the file
invalid. The answers are the whole held-out rows (``PhraseId,SentenceId,Phrase,Sentiment``).
"""

from __future__ import annotations

import pandas as pd

from ._accuracy import accuracy_score
from ._helpers import accuracy_inputs

ANSWERS = "answers.csv"
SAMPLE_SUBMISSION = "public/sampleSubmission.csv"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    y_true, y_pred = accuracy_inputs(submission, answers, target="Sentiment", id_col="PhraseId")
    return accuracy_score(y_true, y_pred)
