"""stanford-covid-vaccine: MCRMSE over the three scored targets, on the scored positions only.

Rows are ``id_seqpos`` (``<sequence id>_<position>``); the submission must also carry the two
unscored targets, ``deg_pH10`` and ``deg_50C``. The answers' ``keep`` column marks the first
``seq_scored`` positions of each sequence, the only ones scored. Rows are aligned by sorting on
``id_seqpos``.

Upstream's quirk, kept: the ``keep`` mask is applied to the sorted submission by index label,
that is by each row's place in the submission file, not by its id: the submission rows kept
are those whose line number is a scored line of the answers, then paired in id order with
the scored answers. A submission in the answers' row order is scored as intended; one in any
other order is scored against the wrong rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.metrics import root_mean_squared_error

from . import InvalidSubmissionError
from ._helpers import require

ANSWERS = "test.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
SCORED = ["reactivity", "deg_Mg_pH10", "deg_Mg_50C"]
UNSCORED = ["deg_pH10", "deg_50C"]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> np.float64:
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            f"Expected submission to be the same length as answers, but got {len(submission)} "
            f"instead of {len(answers)}."
        )
    expected_answers = ["id_seqpos", *SCORED, "keep"]
    require(
        set(answers.columns).issuperset(expected_answers),
        f"Expected answers to have columns {expected_answers}, but instead it has columns "
        f"{list(answers.columns)}.",
    )
    expected = ["id_seqpos", *SCORED, *UNSCORED]
    if not set(submission.columns).issuperset(expected):
        raise InvalidSubmissionError(
            f"Expected the submission to have columns {expected}, but instead it has columns "
            f"{list(submission.columns)}."
        )
    submission = submission[expected].sort_values(by="id_seqpos")
    answers = answers.sort_values(by="id_seqpos")
    for i, (actual, wanted) in enumerate(
        zip(submission["id_seqpos"], answers["id_seqpos"], strict=True)
    ):
        if actual != wanted:
            raise InvalidSubmissionError(
                f"Expected submission to have the same `id_seqpos` as answers, but got "
                f"`{actual}` instead of `{wanted}` on row {i} of the submission."
            )
    mask = answers["keep"].astype(bool)
    by_label = mask.reindex(submission.index)  # upstream's ``sorted_submission[mask]``
    if by_label.isna().any():
        raise ValueError("Unalignable boolean Series provided as indexer")
    errors = [
        root_mean_squared_error(
            answers[column].to_numpy()[mask.to_numpy()],
            submission[column].to_numpy()[by_label.to_numpy(dtype=bool)],
        )
        for column in SCORED
    ]
    return np.mean(errors)
