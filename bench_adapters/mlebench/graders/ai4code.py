"""AI4Code: Kendall tau between the predicted and the true order of each notebook's cells.

``cell_order`` lists a notebook's cell ids, space-separated, in reading order. Over all
notebooks together, ``1 - 4 * inversions / sum(n * (n - 1))``, where ``inversions`` counts the
pairs of cells in the wrong relative order and ``n`` is the notebook's cell count: 1 for every
order right, about 0 for random orders, -1 for every order reversed. Rows are matched on
``id``, which must be the answers' set; each notebook's prediction must list as many cells
as the truth, every true cell among them.

Upstream's quirks, kept: both ``cell_order`` columns go through ``astype(str)``, so under
upstream's pandas 2 a missing cell is the one-cell order ``"nan"`` (rejected here as there,
for its length or its unknown cell, rather than failing on a missing value); and upstream
ranks the true cells by their place in the predicted list (its variable names have the two
swapped), which gives the same count for any prediction that lists each cell once.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import InvalidSubmissionError
from ._text import column_text, sorted_positions

ANSWERS = "test_orders.csv"
SAMPLE_SUBMISSION = "public/sample_submission.csv"


def inversions(ranks: np.ndarray) -> int:
    """Pairs ``i < j`` with ``ranks[i] > ranks[j]`` (ties are not inversions)."""
    return int(np.triu(ranks[:, None] > ranks[None, :], k=1).sum())


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission and answers must have the same length")
    if "id" not in submission.columns or "cell_order" not in submission.columns:
        raise InvalidSubmissionError("Submission must have 'id' and 'cell_order' columns")
    if set(submission["id"]) != set(answers["id"]):
        raise InvalidSubmissionError("Submission and answers must have the same ids")
    sub_order = sorted_positions(submission["id"])
    ans_order = sorted_positions(answers["id"])
    predicted = column_text(submission["cell_order"].iloc[sub_order], "astype_str")
    truth = column_text(answers["cell_order"].iloc[ans_order], "astype_str")
    orders = []
    for guess, true in zip(predicted, truth, strict=True):
        guess_cells, true_cells = guess.split(), true.split()
        if len(guess_cells) != len(true_cells):
            raise InvalidSubmissionError("Ground truth and predictions must have the same length")
        orders.append((guess_cells, true_cells))
    total_inversions = total_pairs = 0
    for guess_cells, true_cells in orders:
        place: dict[str, int] = {}
        for k, cell in enumerate(guess_cells):
            place.setdefault(cell, k)
        missing = [cell for cell in true_cells if cell not in place]
        if missing:
            raise InvalidSubmissionError(f"Cell {missing[0]!r} is missing from the predicted order")
        total_inversions += inversions(np.array([place[cell] for cell in true_cells]))
        total_pairs += len(guess_cells) * (len(guess_cells) - 1)
    if total_pairs == 0:
        raise ZeroDivisionError("No notebook has two cells to order")
    return 1 - 4 * total_inversions / total_pairs
