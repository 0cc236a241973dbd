"""F1 scores the way upstream's graders compute them with scikit-learn, on any pandas.

Two metrics, shared by several competitions:

- ``micro_f1`` over label sets (facebook-recruiting-iii-keyword-extraction, imet-2020-fgvc7,
  plant-pathology-2021-fgvc8). Upstream splits each cell on whitespace
  (``column.fillna("").str.split()``), one-hot encodes the sets with a ``MultiLabelBinarizer``
  whose classes are the labels found in the answers, and takes the micro-averaged F1. So a
  predicted label the answers never use is dropped without a trace (the binarizer only warns),
  a label repeated in one cell counts once, and the score is ``2 TP / (|truth| + |kept
  predictions|)``, 0 when both are empty.
- ``macro_f1`` over integer labels (herbarium-2020/2021/2022, iwildcam-2019-fgvc6). Upstream
  turns every cell into a Python ``int`` (``int(y)``: a float is truncated, ``"12"`` parses,
  ``"1.0"``, NaN and infinities raise) and takes the macro-averaged F1 over the union of true and
  predicted labels, so every label predicted but never true adds a zero to the average.

Parsing follows pandas 2.2 (upstream's pin) whatever pandas runs here: pandas 3's string
methods and ``astype`` differ, so cells are read one by one as Python values, a chunk at a time
(``cells``: the 603k questions of facebook's answers are never all Python strings at once).
Rows are matched by sorting both id columns and comparing them position by position
(``aligned_rows``); only the ids are sorted, never the frames. The herbarium graders share
their checks too (``integer_f1_inputs``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Sequence

import numpy as np
import pandas as pd

from . import InvalidSubmissionError

_INT64 = (-(2**63), 2**63)
CHUNK = 65_536
"""Cells converted to Python objects at a time."""
_UINT64_HIGH = (2**63, 2**64)


def _is_text(column: pd.Series) -> bool:
    """True for object and string columns (pandas 2 reads text as object, pandas 3 as str)."""
    return not (
        pd.api.types.is_numeric_dtype(column.dtype) or pd.api.types.is_bool_dtype(column.dtype)
    )


def comparable(column: pd.Series) -> np.ndarray:
    """The column as upstream's ``.values`` compares it: numbers stay numbers, text becomes
    Python objects (so ``"1" != 1`` and ``1.0 == 1``, as with numpy object arrays)."""
    if _is_text(column):
        return column.to_numpy(dtype=object, na_value=np.nan)
    return column.to_numpy()


def aligned_rows(
    submission: pd.Series, answers: pd.Series, message: str
) -> tuple[np.ndarray, np.ndarray]:
    """Row positions ``(in_submission, in_answers)`` that pair rows of equal id.

    Upstream sorts both frames by the id column (missing ids last) and raises
    ``InvalidSubmissionError`` unless the sorted id columns are equal element by element;
    the columns must have the same length already. Only the ids are sorted here, never the
    frames, so a grade copies no text column.
    """
    order_sub = _sort_order(submission)
    order_ans = _sort_order(answers)
    if (comparable(submission)[order_sub] != comparable(answers)[order_ans]).any():
        raise InvalidSubmissionError(message)
    return order_sub, order_ans


def _sort_order(column: pd.Series) -> np.ndarray:
    """Positions that sort ``column`` ascending, missing values last (``sort_values``)."""
    ordered = column.reset_index(drop=True).sort_values(na_position="last")
    return ordered.index.to_numpy()


# --- label sets ---------------------------------------------------------------------------


def label_sets(column: pd.Series, order: np.ndarray) -> Iterator[list[str]]:
    """The cells at positions ``order``, each split on whitespace, a missing cell as no
    labels, as upstream's ``column.fillna("").str.split()`` yields them into the binarizer
    under pandas 2.2.

    A number or boolean column cannot be split (pandas raises ``AttributeError``), except a
    float column that is missing everywhere: filled with ``""`` it is a column of empty
    strings. A float column with some numbers and some gaps fills to a mix that splits into
    NaN for the numbers, which the binarizer cannot iterate (``TypeError``).
    """
    if not _is_text(column):
        missing = column.isna()
        if pd.api.types.is_float_dtype(column.dtype) and missing.all():
            return iter([] for _ in order)
        if missing.any():
            raise TypeError("'float' object is not iterable (a number among blank cells)")
        raise TypeError(f"Can only use .str accessor with string values, not {column.dtype}")
    return (_split(value) for value in cells(column, order))


def cells(column: pd.Series, order: np.ndarray | None = None) -> Iterator[object]:
    """The column's cells as Python objects (a missing one as NaN), in ``order`` when given,
    ``CHUNK`` at a time: a long text column is never held as Python strings all at once."""
    n = len(column) if order is None else len(order)
    for start in range(0, n, CHUNK):
        if order is None:
            part = column.iloc[start : start + CHUNK]
        else:
            part = column.take(order[start : start + CHUNK])
        yield from part.to_numpy(dtype=object, na_value=np.nan).tolist()


def _split(value: object) -> list[str]:
    if isinstance(value, str):
        return value.split()
    if isinstance(value, float) and np.isnan(value):
        return []
    raise TypeError(f"'{type(value).__name__}' object is not iterable")


def micro_f1(
    truth: Iterable[Collection[str]], predicted: Iterable[Collection[str]], classes: set[str]
) -> float:
    """Micro-averaged F1 of predicted label sets against true ones, row by row, over
    ``classes`` (``MultiLabelBinarizer(classes=...)`` then ``f1_score(average="micro")``):
    predicted labels outside ``classes`` are ignored, repeats count once, 0 when nothing is
    true or predicted. Every true label must be in ``classes``, as upstream builds them."""
    hits = true_total = predicted_total = 0
    for true_row, predicted_row in zip(truth, predicted, strict=True):
        true_set = set(true_row)  # the classes are the true labels: nothing to drop
        predicted_set = classes.intersection(predicted_row)
        hits += len(true_set & predicted_set)
        true_total += len(true_set)
        predicted_total += len(predicted_set)
    if true_total + predicted_total == 0:
        return np.float64(0.0)
    return np.float64(2.0 * hits) / np.float64(true_total + predicted_total)


# --- integer labels -----------------------------------------------------------------------


def int_labels(column: pd.Series, order: np.ndarray) -> list[int]:
    """``[int(y) for y in column]`` over the cells at positions ``order``, then the check numpy's
    array conversion implies: labels all within int64, or all within [2**63, 2**64) (uint64);
    any other mix becomes a float or object array that scikit-learn refuses (``ValueError``)."""
    values = column.tolist()
    labels = [int(values[position]) for position in order]
    if labels:
        low, high = min(labels), max(labels)
        fits_int64 = _INT64[0] <= low and high < _INT64[1]
        fits_uint64 = _UINT64_HIGH[0] <= low and high < _UINT64_HIGH[1]
        if not (fits_int64 or fits_uint64):
            raise ValueError(
                "Classification metrics can't handle a mix of multiclass and continuous targets"
            )
    return labels


def macro_f1(truth: Sequence[int], predicted: Sequence[int]) -> float:
    """Macro-averaged F1 over the sorted union of true and predicted labels
    (``f1_score(average="macro")``): a label never predicted right scores 0."""
    if len(truth) != len(predicted):
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: "
            f"[{len(truth)}, {len(predicted)}]"
        )
    true_count = Counter(truth)
    predicted_count = Counter(predicted)
    hits = Counter(t for t, p in zip(truth, predicted, strict=True) if t == p)
    labels = sorted(true_count.keys() | predicted_count.keys())
    scores = np.array(
        [2.0 * hits[label] / (true_count[label] + predicted_count[label]) for label in labels]
    )
    return np.mean(scores)


def integer_f1_inputs(
    submission: pd.DataFrame, answers: pd.DataFrame, *, check_answers: bool
) -> tuple[list[int], list[int]]:
    """``(y_true, y_pred)`` of the herbarium graders (``Id``, ``Predicted``), with their checks in
    upstream's order: the length, the submission's columns, the answers' columns (2020 and
    2021 only: ``check_answers``), then the ids."""
    if len(submission) != len(answers):
        raise InvalidSubmissionError(
            f"Submission length {len(submission)} != answers length {len(answers)}"
        )
    if "Id" not in submission.columns or "Predicted" not in submission.columns:
        raise InvalidSubmissionError("Submission must have 'Id' and 'Predicted' columns")
    if check_answers:
        if "Id" not in answers.columns:
            raise AssertionError("Answers must have 'Id' column")
        if "Predicted" not in answers.columns:
            raise AssertionError("Answers must have 'Predicted' column")
    in_submission, in_answers = aligned_rows(
        submission["Id"], answers["Id"], "Submission and answers have mismatched 'Id' columns"
    )
    truth = int_labels(answers["Predicted"], in_answers)
    return truth, int_labels(submission["Predicted"], in_submission)
