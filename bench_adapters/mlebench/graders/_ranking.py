"""MAP@k over ranked predictions, as upstream's ``mlebench.metrics`` computes it, with upstream's
parsing of the cells (h-and-m-personalized-fashion-recommendations at 12, hotel-id-2021-fgvc8
and whale-categorization-playground at 5).

Upstream turns each cell into text with pandas 2.2's ``astype(str)`` and splits it on single
spaces (``.str.split(" ")``). So a missing cell is the word ``"nan"``, a number column gives
``"123"`` but a float one ``"123.0"`` (never equal to an integer answer), and two spaces in a
row leave an empty token in the ranking. The truth of a row is a set; a prediction is a list
cut to its first ``k``, where a repeat scores nothing but still takes its place. pandas 3's
``astype(str)`` keeps missing cells missing, so the conversion is done here cell by cell.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd


def as_text(column: pd.Series) -> list[str]:
    """Each cell as pandas 2.2's ``Series.astype(str)`` writes it: ``"nan"`` for a missing
    cell, Python's ``str`` of the number or boolean otherwise (``1.0``, ``1e+20``, ``True``)."""
    if pd.api.types.is_numeric_dtype(column.dtype) or pd.api.types.is_bool_dtype(column.dtype):
        return [str(value) for value in column.tolist()]
    return [_text(value) for value in column.to_numpy(dtype=object, na_value=np.nan)]


def _text(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, float) and np.isnan(value):
        return "nan"
    return str(value)


def ranked(cells: Iterable[str]) -> list[list[str]]:
    """Each cell split on single spaces (``str.split(" ")``)."""
    return [cell.split(" ") for cell in cells]


def average_precision_at_k(actual: set[str], predicted: Sequence[str], k: int) -> float:
    """AP@k of one ranking: precision at each first hit in the top ``k``, over
    ``min(|actual|, k)``; 0 when nothing is true."""
    score, hits = 0.0, 0.0
    top = predicted[:k]
    for i, guess in enumerate(top):
        if guess in actual and guess not in top[:i]:
            hits += 1.0
            score += hits / (i + 1.0)
    if not actual:
        return 0.0
    return score / min(len(actual), k)


def mean_average_precision_at_k(
    actual: Iterable[set[str]], predicted: Iterable[Sequence[str]], k: int
) -> float:
    """MAP@k over rows paired in order; pairs stop at the shorter side (``zip``). A numpy
    float, as upstream's ``np.mean``: its rounding to 5 decimals follows numpy's."""
    scores = [average_precision_at_k(a, p, k) for a, p in zip(actual, predicted, strict=False)]
    return np.float64(np.mean(scores))
