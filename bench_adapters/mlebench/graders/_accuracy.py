"""Accuracy as upstream's pinned scikit-learn (1.5.1) computes it, on any newer version.

scikit-learn 1.5's ``accuracy_score`` checks the target type of both label vectors (a mix of
binary and multiclass counts as multiclass; any other mix, and continuous or unknown targets,
raise ``ValueError``) and, for a binary pair only, that the union of their labels can be sorted
(labels of incomparable types raise ``TypeError``); then it counts the positions where
``y_true == y_pred``. Later versions collect the union of the labels for a multiclass pair too,
which raises on labels of mixed types. So where one text cell turns an integer or boolean label
column into text (``"1"``, ``"True"``, ``"oops"``), upstream scores the submission, every text
label counting as wrong (``1 == "1"`` is false), and a newer scikit-learn refuses it: this
module keeps upstream's verdict.
"""

from __future__ import annotations

import numpy as np
from sklearn.utils.multiclass import type_of_target


def accuracy_score(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """The share of equal labels, after scikit-learn 1.5.1's checks of two label vectors."""
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if len(y_true) != len(y_pred):
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: "
            f"[{len(y_true)}, {len(y_pred)}]"
        )
    type_true = type_of_target(y_true, input_name="y_true")
    type_pred = type_of_target(y_pred, input_name="y_pred")
    kinds = {type_true, type_pred}
    if kinds == {"binary", "multiclass"}:
        kinds = {"multiclass"}
    if len(kinds) > 1:
        raise ValueError(
            f"Classification metrics can't handle a mix of {type_true} and {type_pred} targets"
        )
    kind = kinds.pop()
    if kind not in ("binary", "multiclass"):
        raise ValueError(f"{kind} is not supported")
    if kind == "binary":
        try:
            np.union1d(y_true, y_pred)
        except TypeError as e:
            raise TypeError("Labels in y_true and y_pred should be of the same type.") from e
    return float(np.mean(y_true == y_pred))
