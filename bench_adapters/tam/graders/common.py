"""Reading a submission and lining it up with the answers, with one-line reasons on failure.

Every check raises :class:`Invalid` (MLE-bench's ``InvalidSubmissionError``) with a message
an agent can act on; the task turns it into a validation message or an invalid grade.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bench_adapters.csvio import read_csv
from bench_adapters.mlebench.graders import InvalidSubmissionError as Invalid

__all__ = ["Invalid", "aligned", "finite_numbers", "read_json", "read_table"]


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
    submission: pd.DataFrame, answers: pd.DataFrame, id_col: str, columns: list[str]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Check the columns, row count and ids; return the submission's rows in the answers' order.

    Ids are compared as text, so that ``7`` and ``"7"`` match however each file was parsed.
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
    position = pd.Series(np.arange(len(ids)), index=ids.to_numpy())
    order = position.loc[truth.to_numpy()].to_numpy()
    return submission.iloc[order].reset_index(drop=True), answers.reset_index(drop=True)


def finite_numbers(frame: pd.DataFrame, columns: list[str]) -> np.ndarray:
    """The columns as a float matrix; any blank, text or infinite value is invalid."""
    values = frame[columns].apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
    bad = ~np.isfinite(values)
    if bad.any():
        row, col = np.argwhere(bad)[0]
        raise Invalid(
            f"{int(bad.sum())} value(s) are not finite numbers, e.g. column {columns[col]!r} "
            f"on data row {row + 1}"
        )
    return values
