"""Multi-label heads: from one sigmoid a label to the sets of names a submission lists.

A network with one output a label gives probabilities; a label-set metric (micro-F1, F2)
wants sets. ``tune_threshold`` picks the one threshold that scores best on the hold-out,
``label_sets`` cuts at it, never leaving a row empty (its likeliest label stands in, since
every image has at least one label in these competitions), and ``f_beta`` is the micro-
averaged F-score both of them judge by.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

THRESHOLDS = np.linspace(0.02, 0.9, 45)
"""The thresholds ``tune_threshold`` tries."""


def chosen(probabilities: np.ndarray, threshold: float) -> np.ndarray:
    """(N, L) booleans: the labels at or above ``threshold``, and each row's likeliest label."""
    picked = probabilities >= threshold
    picked[np.arange(len(probabilities)), probabilities.argmax(axis=1)] = True
    return picked


def f_beta(picked: np.ndarray, truth: np.ndarray, beta: float = 1.0) -> float:
    """Micro-averaged F-beta of boolean (N, L) predictions against (N, L) 0/1 truth."""
    truth = truth.astype(bool)
    tp = float((picked & truth).sum())
    fp = float((picked & ~truth).sum())
    fn = float((~picked & truth).sum())
    b2 = beta * beta
    denominator = (1 + b2) * tp + b2 * fn + fp
    return (1 + b2) * tp / denominator if denominator else 0.0


def tune_threshold(probabilities: np.ndarray, truth: np.ndarray, beta: float = 1.0) -> float:
    """The threshold in ``THRESHOLDS`` with the best micro F-beta on (``probabilities``,
    ``truth``); the lowest of equal ones."""
    scores = [f_beta(chosen(probabilities, t), truth, beta) for t in THRESHOLDS]
    return float(THRESHOLDS[int(np.argmax(scores))])


def label_sets(
    probabilities: np.ndarray, threshold: float, names: Sequence[str], sep: str = " "
) -> list[str]:
    """Each row's chosen labels as one string of ``names`` joined by ``sep``."""
    picked = chosen(probabilities, threshold)
    return [sep.join(str(names[int(k)]) for k in np.flatnonzero(row)) for row in picked]
