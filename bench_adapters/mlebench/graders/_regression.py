"""Mean absolute error reduced as scikit-learn 1.5.1 (upstream's pinned version) reduces it.

Inputs are checked by scikit-learn itself (same length, numeric, no NaN or infinity: the same
``ValueError`` messages); the error is then ``np.average(np.abs(y_pred - y_true))``, whose sum
overflows to ``inf`` for values near ``1e308`` exactly where upstream's does. Later
scikit-learn versions reduce differently and give a finite number there.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.utils import check_array, check_consistent_length


def mean_absolute_error(y_true: Any, y_pred: Any) -> float:
    """``sklearn.metrics.mean_absolute_error`` of two 1-d columns, as scikit-learn 1.5.1."""
    check_consistent_length(y_true, y_pred)
    true = check_array(y_true, ensure_2d=False, dtype="numeric")
    pred = check_array(y_pred, ensure_2d=False, dtype="numeric")
    with np.errstate(over="ignore"):
        return float(np.average(np.abs(pred - true)))
