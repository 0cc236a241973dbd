"""Encoded masks in submission and answer cells, read with upstream's decoder semantics.

The codec is ``rlecodec`` (it imports only numpy, so that baseline scripts share it):
``parse`` applies upstream's ``rle_decode`` checks and quirks and returns the runs, from
which the graders count areas and overlaps without building the mask. A cell the decoder
rejects is the submission's fault (``InvalidSubmissionError``); upstream raises its own error
there for contrails, tgs-salt and vesuvius, and lets the ``AssertionError`` or ``ValueError``
through for hubmap and uw-madison, which ends the same way: invalid, no score.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rlecodec import RunLengthError, Runs, intersection, parse

from . import InvalidSubmissionError

__all__ = ["Runs", "answer_runs", "blank_as_empty", "intersection", "submission_runs", "whole_int"]


def submission_runs(cell: object, size: int) -> Runs:
    """The runs of a submission's cell for a ``size``-pixel mask."""
    try:
        return parse(cell, size)
    except RunLengthError as e:
        raise InvalidSubmissionError(f"Error decoding RLE masks: {e}") from None


def answer_runs(cell: object, size: int) -> Runs:
    """The runs of an answers cell; a bad one is the harness's fault."""
    try:
        return parse(cell, size)
    except RunLengthError as e:
        raise AssertionError(f"answers: {e}") from None


def whole_int(value: object) -> int:
    """An image side as upstream's ``rle_decode`` takes it: a Python or numpy integer."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise AssertionError(f"Expected an integer, but got {type(value)}: {value}")
    return int(value)


def blank_as_empty(column: pd.Series) -> list[object]:
    """The cells, a missing one as ``""`` (upstream's ``fillna("")``, without the dtype change
    pandas 3 warns about on a column read as all-missing floats)."""
    missing = column.isna().tolist()
    return ["" if gap else value for value, gap in zip(column.tolist(), missing, strict=True)]
