"""Mutations of the structured answers: tensorflow2-question-answering's spans (moved,
swapped between the long and short rows, yes/no guessed everywhere, and the spellings
upstream's parser accepts or refuses: ``a:``, ``a:b:c``, ``3.0:5``, ``yes``, spaces around the
colon) and hms-harmful-brain-activity-classification's vote shares (noisy but summing to one,
moved between rows, one-hot, blank cells, counts instead of shares, extra columns).

Like ``box_mutations``, these start from the gold submission and come after the generic
mutations, for their competition only; append new ones at the end of :data:`NAMES` or
:data:`VOTES`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from .mutations import Base, Frame, Mutation

COMPETITION = "tensorflow2-question-answering"
ID, PREDICTION = "example_id", "PredictionString"
HMS = "hms-harmful-brain-activity-classification"
EEG_ID = "eeg_id"


def _spans(base: Base) -> list[int]:
    return [i for i, p in enumerate(base.gold[PREDICTION]) if ":" in p]


def _each_span(base: Base, change: Callable[[int, int], str]) -> pd.DataFrame:
    frame = base.gold.copy()
    cells = []
    for p in frame[PREDICTION]:
        if ":" in p:
            start, end = (int(v) for v in p.split(":"))
            p = change(start, end)
        cells.append(p)
    frame[PREDICTION] = cells
    return frame


def _first_span(base: Base, change: Callable[[int, int], str]) -> Frame:
    spans = _spans(base)
    if not spans:
        return None
    frame = base.gold.copy()
    start, end = (int(v) for v in frame[PREDICTION].iloc[spans[0]].split(":"))
    frame.loc[frame.index[spans[0]], PREDICTION] = change(start, end)
    return frame


def _swapped(base: Base, rng: np.random.Generator) -> pd.DataFrame:
    """Each example's long and short predictions exchanged."""
    frame = base.gold.copy()
    pairs = frame.groupby(frame[ID].str.rsplit("_", n=1).str[0], sort=False).indices
    values = frame[PREDICTION].to_numpy(dtype=object).copy()
    for rows in pairs.values():
        if len(rows) == 2:
            values[rows] = values[rows[::-1]]
    frame[PREDICTION] = values
    return frame


def _short_rows(base: Base, value: str) -> pd.DataFrame:
    frame = base.gold.copy()
    frame.loc[frame[ID].str.endswith("_short"), PREDICTION] = value
    return frame


AnswerMutation = Callable[["Base", np.random.Generator], "Frame"]

NAMES: dict[str, AnswerMutation] = {
    "answers_spans_shifted": lambda b, r: _each_span(b, lambda s, e: f"{s + 1}:{e + 1}"),
    "answers_long_short_swapped": _swapped,
    "answers_yes_for_every_short": lambda b, r: _short_rows(b, "YES"),
    "answers_no_for_every_short": lambda b, r: _short_rows(b, "NO"),
    "answers_span_without_end": lambda b, r: _first_span(b, lambda s, e: f"{s}:"),
    "answers_span_of_three": lambda b, r: _first_span(b, lambda s, e: f"{s}:{e}:{e}"),
    "answers_span_as_floats": lambda b, r: _first_span(b, lambda s, e: f"{s}.0:{e}"),
    "answers_spaced_span": lambda b, r: _first_span(b, lambda s, e: f" {s} : {e} "),
    "answers_lowercase_yes": lambda b, r: _short_rows(b, "yes"),
}
"""Mutation name -> what it makes of the gold; append new ones at the end."""


def _shares(base: Base) -> np.ndarray:
    return base.gold[base.targets].astype(float).to_numpy()


def _with_shares(base: Base, shares: np.ndarray, columns: list[str] | None = None) -> pd.DataFrame:
    frame = base.gold.copy()
    for k, column in enumerate(columns or base.targets):
        frame[column] = [repr(float(v)) for v in shares[:, k]]
    return frame


def _noisy_shares(base: Base, rng: np.random.Generator) -> pd.DataFrame:
    """Shares moved by noise, clipped at 0 and divided by their new sum (still valid)."""
    shares = np.clip(_shares(base) + rng.normal(0, 0.1, _shares(base).shape), 0, None)
    shares[shares.sum(axis=1) == 0, 0] = 1.0
    return _with_shares(base, shares / shares.sum(axis=1, keepdims=True))


def _one_hot(base: Base) -> np.ndarray:
    shares = _shares(base)
    return np.eye(shares.shape[1])[shares.argmax(axis=1)]


def _one_hot_blank_zero(base: Base, rng: np.random.Generator) -> pd.DataFrame:
    """One-hot shares with one zero cell a row left blank (the rest still sums to one)."""
    frame = _with_shares(base, _one_hot(base))
    hot = _one_hot(base).argmax(axis=1)
    for row in range(len(frame)):
        blank = (hot[row] + 1 + int(rng.integers(len(base.targets) - 1))) % len(base.targets)
        frame.loc[frame.index[row], base.targets[blank]] = ""
    return frame


def _within_id(base: Base, rng: np.random.Generator) -> pd.DataFrame:
    """Rows of each id in another order (the file order only)."""
    frame = base.gold.copy()
    order = np.arange(len(frame))
    for rows in frame.groupby(EEG_ID, sort=False).indices.values():
        order[rows] = rows[rng.permutation(len(rows))]
    return frame.iloc[order]


VOTES: dict[str, AnswerMutation] = {
    "votes_noisy_shares": _noisy_shares,
    "votes_moved_between_rows": lambda b, r: _with_shares(
        b, _shares(b)[r.permutation(len(b.gold))]
    ),
    "votes_one_hot": lambda b, r: _with_shares(b, _one_hot(b)),
    "votes_one_hot_blank_zero": _one_hot_blank_zero,
    "votes_counts_not_shares": lambda b, r: _with_shares(b, _shares(b) * 3),
    "votes_percentages": lambda b, r: _with_shares(b, _shares(b) * 100),
    "votes_reordered_within_eeg": _within_id,
    "votes_extra_id_column": lambda b, r: b.gold.assign(patient_id="20000"),
    "votes_extra_flag_column": lambda b, r: b.gold.assign(flag="True"),
    "votes_rounded": lambda b, r: _with_shares(b, np.round(_shares(b), 2)),
}
"""hms-harmful-brain-activity-classification's mutations; append new ones at the end."""


def answer_mutations(competition_id: str) -> dict[str, Mutation]:
    if competition_id == COMPETITION:
        return dict(NAMES)
    return dict(VOTES) if competition_id == HMS else {}
