"""Reading a submission and lining it up with the answers, with one-line reasons on failure.

Every check raises :class:`Invalid` (MLE-bench's ``InvalidSubmissionError``) with a message
an agent can act on; the task turns it into a validation message or an invalid grade.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bench_adapters.csvio import read_csv
from bench_adapters.mlebench.graders import InvalidSubmissionError as Invalid

__all__ = ["Invalid", "aligned", "finite_numbers", "non_blank", "read_json", "read_table"]


def read_table(path: Path) -> pd.DataFrame:
    """A submission CSV read as MLE-bench reads it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return read_csv(path)
    except (pd.errors.ParserError, UnicodeDecodeError, ValueError) as e:
        raise Invalid(f"{path.name} is not a readable CSV file: {one_line(e)}") from None


def read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise Invalid(f"{path.name} is not a JSON file: {one_line(e)}") from None


def one_line(error: Exception) -> str:
    return " ".join(str(error).split())[:300]


def _example(values: Any) -> str:
    return repr(sorted(values, key=str)[0])


def aligned(
    submission: pd.DataFrame,
    answers: pd.DataFrame,
    id_col: str,
    columns: list[str],
    *,
    numbers: Sequence[str] = (),
    labels: Sequence[str] = (),
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Check the columns, row count, ids and cell types; return the submission's rows in the
    answers' order.

    Ids are compared as text, so that ``7`` and ``"7"`` match however each file was parsed.
    Every cell of ``numbers`` must be a finite number (returned as floats) and every cell of
    ``labels`` non-blank (returned as text); a bad cell is named by its data row in the file.
    """
    wanted = [id_col, *columns]
    missing = [c for c in wanted if c not in submission.columns]
    if missing:
        raise Invalid(
            f"the submission lacks column(s) {missing}; expected the columns {wanted} "
            f"(found {list(submission.columns)})"
        )
    if len(submission) != len(answers):
        raise Invalid(
            f"the submission has {len(submission)} rows; expected {len(answers)}, "
            f"one per {id_col} of the test set"
        )
    ids = submission[id_col].astype(str)
    repeated = ids[ids.duplicated()]
    if len(repeated):
        raise Invalid(f"{id_col} {repeated.iloc[0]!r} appears more than once")
    truth = answers[id_col].astype(str)
    absent = set(truth) - set(ids)
    if absent:
        raise Invalid(
            f"{len(absent)} {id_col} value(s) of the test set are not in the submission, "
            f"e.g. {_example(absent)}; unknown ones found: {_example(set(ids) - set(truth))}"
        )
    typed = submission.reset_index(drop=True)
    for column in numbers:
        typed[column] = finite_numbers(typed, column, id_col)
    for column in labels:
        typed[column] = non_blank(typed, column, id_col)
    position = pd.Series(np.arange(len(ids)), index=ids.to_numpy())
    order = position.loc[truth.to_numpy()].to_numpy()
    return typed.iloc[order].reset_index(drop=True), answers.reset_index(drop=True)


def _first_bad(frame: pd.DataFrame, column: str, id_col: str, bad: np.ndarray) -> str:
    """Where the first bad cell is, and how many there are, as a message's end."""
    row = int(np.flatnonzero(bad)[0])
    cell = frame[column].iloc[row]
    shown = "is blank or NaN/NA" if pd.isna(cell) else f"holds {str(cell)!r}"
    where = f"data row {row + 1} ({id_col} {str(frame[id_col].iloc[row])!r}) {shown}"
    count = int(bad.sum())
    return where + (f" ({count} rows in all)" if count > 1 else "")


def finite_numbers(frame: pd.DataFrame, column: str, id_col: str) -> np.ndarray:
    """The column as floats; a blank, text, true/false or infinite cell is invalid."""
    cells = frame[column]
    if pd.api.types.is_bool_dtype(cells):
        values = np.full(len(cells), np.nan)
    else:
        values = pd.to_numeric(cells, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    bad = ~np.isfinite(values)
    if bad.any():
        raise Invalid(
            f"{column} must be a finite number on every row; "
            + _first_bad(frame, column, id_col, bad)
        )
    return values


def non_blank(frame: pd.DataFrame, column: str, id_col: str) -> pd.Series:
    """The column as text; a blank (or NaN) cell is invalid."""
    cells = frame[column]
    bad = (cells.isna() | (cells.astype(str).str.strip() == "")).to_numpy(dtype=bool)
    if bad.any():
        raise Invalid(
            f"{column} needs a label on every row; " + _first_bad(frame, column, id_col, bad)
        )
    return cells.astype(str)
