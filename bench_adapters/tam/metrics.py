"""The metrics of the TAM tasks that MLE-bench has no grader for, as pure functions.

Inputs are already aligned and checked by the task's grader; these only compute.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from sklearn.metrics import average_precision_score, matthews_corrcoef, roc_auc_score

NOCALL = "nocall"


def bird_set(cell: str) -> set[str]:
    """``"amecro amerob"`` -> the set of codes; ``nocall`` is the empty set."""
    codes = set(str(cell).split())
    codes.discard(NOCALL)
    return codes


def mean_set_f1(truth: Iterable[set[str]], predicted: Iterable[set[str]]) -> float:
    """Mean over rows of the F1 of each row's predicted set; two empty sets score 1."""
    scores = []
    for true, pred in zip(truth, predicted, strict=True):
        if not true and not pred:
            scores.append(1.0)
            continue
        hits = len(true & pred)
        scores.append(2 * hits / (len(true) + len(pred)))
    return float(np.mean(scores))


def weighted_auc(per_author: Iterable[tuple[Sequence[int], Sequence[float]]]) -> float:
    """Sum of each author's ROC AUC times its share of all errors (label 1 = error).

    Authors whose papers are all of one kind have no AUC; they carry no weight either when they
    have no errors, and are left out (with their weight) when all their papers are errors.
    """
    total, weights = 0.0, 0
    for labels, scores in per_author:
        errors = int(np.sum(labels))
        if errors == 0 or errors == len(labels):
            continue
        total += errors * roc_auc_score(labels, scores)
        weights += errors
    if weights == 0:
        raise ValueError("no author has both correct and incorrect papers")
    return total / weights


def mean_average_precision(per_query: Iterable[tuple[Sequence[int], Sequence[float]]]) -> float:
    """Mean over queries of scikit-learn's average precision (graph/medium's MAP)."""
    return float(np.mean([average_precision_score(y, s) for y, s in per_query]))


def first_positions(ranked: Sequence[str]) -> dict[str, int]:
    """Item -> its first 0-based position: a repeated item counts only where it first appears."""
    positions: dict[str, int] = {}
    for i, item in enumerate(ranked):
        positions.setdefault(item, i)
    return positions


def retrieval_ap(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    """AQA's AP over the top ``k``: the mean of precision@i over the hits, 0 with no hit."""
    hits, total = 0, 0.0
    for item, i in first_positions(ranked[:k]).items():
        if item in relevant:
            hits += 1
            total += hits / (i + 1)
    return total / hits if hits else 0.0


def reciprocal_rank(ranked: Sequence[str], target: str, k: int) -> float:
    """1 / (1-based position of ``target`` in the top ``k``), 0 when it is not there."""
    position = first_positions(ranked[:k]).get(target)
    return 0.0 if position is None else 1.0 / (position + 1)


def clipped_mean_r2(truth: np.ndarray, predicted: np.ndarray) -> float:
    """Mean over columns of R², each clipped at 0 (a constant column scores 0)."""
    scores = []
    for j in range(truth.shape[1]):
        y, p = truth[:, j], predicted[:, j]
        ss_tot = float(np.sum((y - y.mean()) ** 2))
        r2 = 1.0 - float(np.sum((y - p) ** 2)) / ss_tot if ss_tot > 0 else 0.0
        scores.append(max(r2, 0.0))
    return float(np.mean(scores))


def mcc(truth: Sequence[str], predicted: Sequence[str]) -> float:
    return float(matthews_corrcoef(list(truth), list(predicted)))
