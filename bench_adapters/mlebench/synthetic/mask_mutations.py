"""Mutations of run-length encoded mask submissions: near misses, and every way upstream's
decoder (``rlecodec``) accepts or rejects an encoding.

Each competition's mask column is ``COLUMNS``'s. From the gold submission: every run moved
on by a pixel or lengthened by one (valid, a little worse); one cell broken as upstream's
checks see it (pairs out of order, a repeated or overlapping run, a zero or negative length,
a zero start, a float token, an odd number of tokens), bent as its quirks allow (three tokens
read as two runs, one token read as no run, runs past the last pixel clipped, numbers too
large for 64 bits), or spelled differently with the same value (``+5``, ``1_0``, Arabic-Indic
digits, tabs and extra spaces); every mask written ``-``, blank or a single space.

``mutations.parity_submissions`` appends these after the generic mutations, for these five
competitions only; each draws from its own seeded generator, and a new one is added at the
end of :data:`NAMES` so that the others' bytes never change.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

    from .mutations import Base, Frame, Mutation

COLUMNS: dict[str, str] = {
    "google-research-identify-contrails-reduce-global-warming": "encoded_pixels",
    "hubmap-kidney-segmentation": "predicted",
    "tgs-salt-identification-challenge": "rle_mask",
    "uw-madison-gi-tract-image-segmentation": "predicted",
    "vesuvius-challenge-ink-detection": "Predicted",
}
"""Competition id -> the column holding each row's encoded mask."""

PAST_ANY_IMAGE = 10**12
"""A pixel number past the last pixel of any mask (hubmap's largest have about 2.5e9)."""

Edit = Callable[[list[int], np.random.Generator], str | None]
"""One cell's tokens (as integers) -> its new text, or None where it does not apply."""
MaskMutation = Callable[["Base", np.random.Generator, str], "Frame"]


def _tokens(cell: str) -> list[int] | None:
    """The integers of a gold cell; None for an empty mask or one spelled otherwise."""
    try:
        return [int(t) for t in cell.split()] or None
    except ValueError:
        return None


def _one_cell(base: Base, rng: np.random.Generator, column: str, runs: int, edit: Edit) -> Frame:
    """The gold with one cell, drawn among those of at least ``runs`` runs, edited."""
    cells = base.gold[column]
    rows = [i for i, cell in enumerate(cells) if len(_tokens(cell) or []) >= 2 * runs]
    if not rows:
        return None
    row = rows[int(rng.integers(len(rows)))]
    tokens = _tokens(cells.iloc[row])
    assert tokens is not None
    text = edit(tokens, rng)
    if text is None:
        return None
    frame: pd.DataFrame = base.gold.copy()
    frame.loc[frame.index[row], column] = text
    return frame


def _every_cell(base: Base, column: str, change: Callable[[list[int]], str]) -> Frame:
    """The gold with every non-empty mask rewritten by ``change``."""
    frame: pd.DataFrame = base.gold.copy()
    frame[column] = [
        cell if (tokens := _tokens(cell)) is None else change(tokens) for cell in frame[column]
    ]
    return frame


def _text(tokens: list[int]) -> str:
    return " ".join(map(str, tokens))


def _pairs(tokens: list[int]) -> list[list[int]]:
    return [tokens[i : i + 2] for i in range(0, len(tokens) - 1, 2)]


def _overlapping(tokens: list[int], rng: np.random.Generator) -> str:
    """The first run lengthened into the second."""
    out = list(tokens)
    out[1] = tokens[2] - tokens[0] + 1
    return _text(out)


def _arabic_indic(value: int) -> str:
    return "".join(chr(0x660 + int(d)) for d in str(value))


def _respelled(tokens: list[int], rng: np.random.Generator) -> str:
    """The same numbers: the first start with a plus sign, the first length (when it has two
    digits or more) with an underscore after its first digit."""
    first = str(tokens[1])
    length = first[0] + "_" + first[1:] if len(first) > 1 else first
    return " ".join([f"+{tokens[0]}", length, *map(str, tokens[2:])])


def _constant(value: str) -> Callable[[Base, np.random.Generator, str], Frame]:
    def mutation(base: Base, rng: np.random.Generator, column: str) -> Frame:
        return base.gold.assign(**{column: value})

    return mutation


def _cell(runs: int, edit: Edit) -> MaskMutation:
    return lambda base, rng, column: _one_cell(base, rng, column, runs, edit)


def _every(change: Callable[[list[int]], str]) -> MaskMutation:
    return lambda base, rng, column: _every_cell(base, column, change)


NAMES: dict[str, MaskMutation] = {
    "rle_starts_shifted": _every(lambda t: _text([v + (i % 2 == 0) for i, v in enumerate(t)])),
    "rle_runs_lengthened": _every(lambda t: _text([v + (i % 2 == 1) for i, v in enumerate(t)])),
    "rle_pairs_unsorted": _cell(2, lambda t, r: _text(list(chain(*_pairs(t)[::-1])))),
    "rle_run_repeated": _cell(1, lambda t, r: _text(t[:2] + t)),
    "rle_runs_overlapping": _cell(2, _overlapping),
    "rle_zero_length": _cell(1, lambda t, r: _text([t[0], 0, *t[2:]])),
    "rle_zero_start": _cell(1, lambda t, r: _text([0, *t[1:]])),
    "rle_negative_length": _cell(1, lambda t, r: _text([t[0], -t[1], *t[2:]])),
    "rle_float_tokens": _cell(1, lambda t, r: " ".join(f"{v}.0" for v in t)),
    "rle_three_tokens": _cell(2, lambda t, r: _text(t[:3])),
    "rle_odd_token_count": _cell(3, lambda t, r: _text(t[:-1])),
    "rle_single_token": _cell(1, lambda t, r: _text(t[:1])),
    "rle_run_past_edge": _cell(1, lambda t, r: _text([*t[:-1], t[-1] + PAST_ANY_IMAGE])),
    "rle_start_past_edge": _cell(1, lambda t, r: _text([*t, PAST_ANY_IMAGE, 5])),
    "rle_whole_image": _cell(1, lambda t, r: f"1 {PAST_ANY_IMAGE}"),
    "rle_beyond_uint64": _cell(1, lambda t, r: _text([*t, 10**20, 1])),
    "rle_uint64_start": _cell(1, lambda t, r: _text([*t, 2**63, 1])),
    "rle_int64_wraps": _cell(1, lambda t, r: _text([t[0], 2**63 - 1, *t[2:]])),
    "rle_respelled": _cell(1, _respelled),
    "rle_arabic_indic_digits": _cell(
        1, lambda t, r: " ".join([_arabic_indic(t[0]), *map(str, t[1:])])
    ),
    "rle_tabs_and_spaces": _cell(1, lambda t, r: "  " + "\t".join(map(str, t)) + " "),
    "rle_all_dashes": _constant("-"),
    "rle_all_blank": _constant(""),
    "rle_all_single_space": _constant(" "),
}
"""Mutation name -> what it makes of the gold, given the mask column; append new ones."""


def mask_mutations(competition_id: str) -> dict[str, Mutation]:
    """The mask mutations of ``competition_id`` (none for a competition not graded on masks)."""
    column = COLUMNS.get(competition_id)
    if column is None:
        return {}

    def bind(mutation: MaskMutation) -> Mutation:
        return lambda base, rng: mutation(base, rng, column)

    return {name: bind(mutation) for name, mutation in NAMES.items()}
