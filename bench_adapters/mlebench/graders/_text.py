"""Text metrics shared by several graders: mean Levenshtein distance and word-set Jaccard.

Both work on plain ``str`` values; how a column becomes those values differs from one
competition to the next upstream, so each grader names its way (``Conversion``):

- ``"as_read"``: cells reach the metric as pandas read them, so a missing cell (a float NaN)
  or a column read as numbers fails (billion-word-imputation);
- ``"astype_str"``: ``astype(str)``, which under upstream's pandas 2 turns a missing cell into
  the text ``"nan"`` and a number into its ``str`` (bms-molecular-translation, AI4Code);
- ``"fillna_astype_str"``: ``fillna("").astype(str)``: a missing cell is ``""``, a number its
  ``str`` (tweet-sentiment-extraction);
- ``"fillna"``: ``fillna("")`` alone: a missing cell is ``""``, any other non-text cell fails
  (chaii, where ``str.lower`` meets it).

The distances come from rapidfuzz (the library behind upstream's pinned ``levenshtein``):
insertions, deletions and substitutions of Unicode code points, each costing 1. Long columns
are measured a chunk of rows at a time, so that only one chunk's Python strings exist at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Literal

import numpy as np
import pandas as pd
from rapidfuzz.distance import Levenshtein
from rapidfuzz.process import cpdist

from ._helpers import ids_differ, same_order

CHUNK = 16_384
"""Rows turned into Python strings at a time (a few MB of them)."""

Conversion = Literal["as_read", "astype_str", "fillna_astype_str", "fillna"]
BothEmpty = Literal["zero", "fail"]


def column_text(values: Iterable[object], conversion: Conversion) -> list[str]:
    """The cells as ``str``, converted as upstream does (see the module docstring); a cell the
    conversion cannot turn into text raises ``TypeError``."""
    out: list[str] = []
    for value in values:
        if isinstance(value, str):
            out.append(value)
        elif conversion == "as_read":
            raise TypeError(f"expected text, got {type(value).__name__} {value!r}")
        elif pd.isna(value):
            out.append("nan" if conversion == "astype_str" else "")
        elif conversion == "fillna":
            raise TypeError(f"expected text, got {type(value).__name__} {value!r}")
        else:
            out.append(str(value))
    return out


def sorted_positions(ids: pd.Series) -> np.ndarray:
    """Row positions that sort ``ids`` as ``DataFrame.sort_values`` does (missing ids last),
    without the sorted copy."""
    return np.asarray(ids.array.argsort(kind="quicksort", na_position="last"))


def id_pairing(submitted: pd.Series, expected: pd.Series) -> tuple[bool, np.ndarray | None]:
    """Whether two id columns of equal length hold the same ids once both are sorted, and the
    rows of the submission in the answers' order (``pairing``; None: file order already)."""
    if same_order(submitted, expected):
        return True, None
    sub_order, ans_order = sorted_positions(submitted), sorted_positions(expected)
    if ids_differ(submitted.iloc[sub_order], expected.iloc[ans_order]):
        return False, None
    return True, pairing(ans_order, sub_order)


def pairing(true_order: np.ndarray, predicted_order: np.ndarray) -> np.ndarray:
    """For each answers row, in file order, the submission row paired with it, when both are
    sorted by id and paired position by position (``true_order``, ``predicted_order``: the
    positions that sort each side)."""
    rank = np.empty_like(true_order)
    rank[true_order] = np.arange(len(true_order))
    return predicted_order[rank]


def text_chunks(
    column: pd.Series,
    conversion: Conversion,
    rows: np.ndarray | None = None,
    chunk: int = CHUNK,
) -> Iterator[list[str]]:
    """``column``'s cells as text, ``chunk`` rows at a time, in file order or in the order
    ``rows``. Reordering copies the column once (taking rows chunk by chunk from a column read
    in several chunks copies all of it each time); file order copies nothing."""
    values = column.array
    if rows is not None and not np.array_equal(rows, np.arange(len(rows))):
        values = values.take(rows)
    text_dtype = isinstance(column.dtype, pd.StringDtype)  # every cell a str or missing
    for start in range(0, len(values), chunk):
        cells = values[start : start + chunk].to_numpy()  # far quicker to iterate
        if text_dtype and not pd.isna(cells).any():
            yield cells.tolist()
        else:
            yield column_text(cells, conversion)


def levenshtein_total(y_true: Iterable[list[str]], y_pred: Iterable[list[str]]) -> int:
    """Sum of the edit distances between paired texts, given as matching chunks."""
    total = 0
    for truth, guess in zip(y_true, y_pred, strict=True):
        if len(truth) != len(guess):
            raise ValueError(f"{len(truth)} true texts but {len(guess)} predicted")
        distances = cpdist(truth, guess, scorer=Levenshtein.distance, workers=1)
        total += int(distances.sum(dtype=np.int64))
    return total


def mean_levenshtein(
    y_true: Iterable[list[str]], y_pred: Iterable[list[str]], n_rows: int
) -> np.float64:
    """``np.mean`` of the per-row edit distances, as a ``numpy.float64`` (upstream's type, so
    that ``round(score, 5)`` rounds as upstream's does); NaN when there are no rows."""
    total = levenshtein_total(y_true, y_pred)
    return np.float64(total / n_rows) if n_rows else np.float64(np.nan)


def word_set(text: str) -> set[str]:
    """The distinct words of a text: lower-cased, split on any run of whitespace."""
    return set(text.lower().split())


def vocabulary_size(*columns: Sequence[str]) -> int:
    """How many distinct words the texts of all ``columns`` hold together."""
    words: set[str] = set()
    for column in columns:
        for text in column:
            words |= word_set(text)
    return len(words)


def jaccard_scores(
    y_true: Sequence[str], y_pred: Sequence[str], both_empty: BothEmpty
) -> np.ndarray:
    """Per row, ``|A & B| / |A | B|`` of the two word sets. Where both are empty the row scores
    0 (``"zero"``, scikit-learn's ``zero_division``) or raises ``ZeroDivisionError``
    (``"fail"``, a plain division)."""
    scores = np.zeros(len(y_true), dtype=np.float64)
    for i, (truth, guess) in enumerate(zip(y_true, y_pred, strict=True)):
        a, b = word_set(truth), word_set(guess)
        shared = len(a & b)
        union = len(a) + len(b) - shared
        if union:
            scores[i] = shared / union
        elif both_empty == "fail":
            raise ZeroDivisionError(f"row {i}: the true and the predicted text are both empty")
    return scores
