"""A fixed, seeded set of submissions per competition, for parity with upstream's grading.

``parity_submissions(competition_id, data_dir)`` reads a prepared fixture (the gold file, or the
answers cut to the sample's columns, and the sample submission) and returns the gold file, the
sample and about 40 mutations of them: rows dropped, duplicated, shuffled or added, ids
duplicated or unknown, columns missing, renamed, reordered or added; blank, ``nan``, text,
huge (one cell, or a tenth of them), negative and out-of-range cells; noisy values, swapped
labels, a constant prediction; reformatted ids and values, padded and quoted cells, other line
endings, a BOM, a truncated file, an empty one. ``bench/upstream_parity.py`` grades them with
upstream's code and stores upstream's results with each file's SHA-256; the parity test
regenerates the same bytes here and grades them with the project.

Every cell is handled as text (read with ``dtype=str``, no NA parsing), so ids keep their exact
spelling (leading zeros included) and a mutation changes only what it names. Each mutation
draws from its own generator, seeded by the competition id and the mutation's name, so adding
a mutation leaves the others' bytes unchanged. A mutation that does not apply to a
competition (no numeric column to make noisy, a sample without the gold's ids) is left out.
"""

from __future__ import annotations

import csv
import hashlib
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

import numpy as np
import pandas as pd

FIXTURE_SEED = 11
"""The seed parity fixtures are generated with (smoke size): the tests' ``MLEBENCH_SEED``."""
MUTATION_SEED = 26
"""Mixed into every mutation's generator."""
UNKNOWN_ID = "parity-unknown-id"


@dataclass(frozen=True)
class Submission:
    """One submission file: a stable name and its exact bytes."""

    name: str
    content: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.content).hexdigest()


@dataclass(frozen=True)
class Base:
    """What the mutations start from, every cell as text."""

    gold: pd.DataFrame
    """The gold submission (or the sample, where the fixture has no gold in submission form)."""
    sample: pd.DataFrame
    gold_bytes: bytes
    sample_bytes: bytes
    id_col: str
    targets: list[str]


Frame: TypeAlias = pd.DataFrame | bytes | None
"""What a mutation makes: a frame to write, the exact bytes, or None where it does not apply."""
Mutation: TypeAlias = Callable[[Base, np.random.Generator], Frame]


def read_text_frame(path: Path) -> pd.DataFrame:
    """Every cell as the exact text in the file (no type inference, no NA parsing)."""
    return pd.read_csv(path, dtype=str, keep_default_na=False, na_filter=False)


def to_bytes(frame: pd.DataFrame, **to_csv: object) -> bytes:
    text: str = frame.to_csv(index=False, lineterminator="\n", **to_csv)
    return text.encode("utf-8")


def _floats(column: pd.Series) -> np.ndarray | None:
    """The column as floats, or None when any cell is not a number."""
    try:
        return np.array([float(v) for v in column], dtype=float)
    except ValueError:
        return None


def _is_label(column: pd.Series) -> bool:
    """Text, or integers with few distinct values (class labels rather than quantities)."""
    values = _floats(column)
    if values is None or not np.isfinite(values).all():
        return True
    return bool((values == np.round(values)).all() and len(np.unique(values)) <= 40)


def _format(values: np.ndarray) -> list[str]:
    return [repr(float(v)) for v in values]


def _id_col(gold: pd.DataFrame) -> str:
    """The first column whose values are all distinct (the id), else the first column."""
    for name in gold.columns:
        if gold[name].is_unique:
            return str(name)
    return str(gold.columns[0])


def _set_cell(base: Base, rng: np.random.Generator, value: str) -> pd.DataFrame:
    frame = base.gold.copy()
    row = int(rng.integers(len(frame)))
    column = base.targets[int(rng.integers(len(base.targets)))]
    frame.loc[frame.index[row], column] = value
    return frame


def _many_huge(base: Base, rng: np.random.Generator) -> pd.DataFrame:
    """About a tenth of the target cells (at least one) set to ``1e308``."""
    frame = base.gold.copy()
    for column in base.targets:
        picked = np.flatnonzero(rng.random(len(frame)) < 0.1)
        if len(picked) == 0:
            picked = np.array([int(rng.integers(len(frame)))])
        frame.loc[frame.index[picked], column] = "1e308"
    return frame


def _new_id(base: Base) -> str:
    numbers = _floats(base.gold[base.id_col])
    if numbers is not None and (numbers == np.round(numbers)).all():
        return str(int(numbers.max()) + 1)
    return UNKNOWN_ID


def _reassign(column: pd.Series, share: float, rng: np.random.Generator) -> pd.Series:
    """About ``share`` of the cells take the value of another row (labels swapped)."""
    out = column.copy()
    picked = np.flatnonzero(rng.random(len(out)) < share)
    if len(picked) == 0:
        picked = np.array([int(rng.integers(len(out)))])
    donors = rng.integers(len(out), size=len(picked))
    out.iloc[picked] = column.iloc[donors].to_numpy()
    return out


def _noisy(base: Base, rng: np.random.Generator, scale: float, share: float) -> pd.DataFrame:
    frame = base.gold.copy()
    for column in base.targets:
        if _is_label(frame[column]):
            frame[column] = _reassign(frame[column], share, rng)
            continue
        values = _floats(frame[column])
        assert values is not None
        spread = float(values.std()) or 1.0
        noisy = values + rng.normal(0.0, scale * spread, len(values))
        if values.min() >= 0 and values.max() <= 1:  # probabilities stay probabilities
            noisy = np.clip(noisy, 0.0, 1.0)
        frame[column] = _format(noisy)
    return frame


def _with_targets(base: Base, column: str, values: list[str]) -> pd.DataFrame:
    frame = base.gold.copy()
    frame[column] = values
    return frame


def _drop_rows(base: Base, rng: np.random.Generator, count: int) -> pd.DataFrame:
    drop = rng.choice(len(base.gold), size=min(count, len(base.gold) - 1), replace=False)
    return base.gold.drop(index=base.gold.index[drop])


def _duplicate_id(base: Base, rng: np.random.Generator) -> Frame:
    if len(base.gold) < 2:
        return None
    frame = base.gold.copy()
    a, b = rng.choice(len(frame), size=2, replace=False)
    frame.loc[frame.index[a], base.id_col] = frame[base.id_col].iloc[b]
    return frame


def _unknown_id(base: Base, rng: np.random.Generator) -> pd.DataFrame:
    frame = base.gold.copy()
    frame.loc[frame.index[int(rng.integers(len(frame)))], base.id_col] = _new_id(base)
    return frame


def _extra_unknown_row(base: Base, rng: np.random.Generator) -> pd.DataFrame:
    row = base.gold.iloc[[int(rng.integers(len(base.gold)))]].copy()
    row[base.id_col] = _new_id(base)
    return pd.concat([base.gold, row], ignore_index=True)


def _half_sample(base: Base, rng: np.random.Generator) -> Frame:
    """Every other row predicted as the sample predicts it (matched by id)."""
    sample = base.sample
    if base.id_col not in sample.columns or not set(base.targets) <= set(sample.columns):
        return None
    if not sample[base.id_col].is_unique or not base.gold[base.id_col].is_unique:
        return None
    by_id = sample.set_index(base.id_col)
    frame = base.gold.copy()
    rows = frame.index[::2]
    ids = frame.loc[rows, base.id_col]
    if not ids.isin(by_id.index).all():
        return None
    for column in base.targets:
        frame.loc[rows, column] = by_id.loc[ids, column].to_numpy()
    return frame


def _ids_reformatted(base: Base, rng: np.random.Generator) -> pd.DataFrame:
    """Integer ids written as floats (``12.0``), any other id upper-cased."""
    frame = base.gold.copy()
    numbers = _floats(frame[base.id_col])
    if numbers is not None and (numbers == np.round(numbers)).all():
        frame[base.id_col] = [f"{int(v)}.0" for v in numbers]
    else:
        frame[base.id_col] = frame[base.id_col].str.upper()
    return frame


def _values_reformatted(base: Base, rng: np.random.Generator) -> pd.DataFrame:
    """Numbers rounded to 3 decimals (integers written as floats), text upper-cased."""
    frame = base.gold.copy()
    for column in base.targets:
        values = _floats(frame[column])
        if values is None:
            frame[column] = frame[column].str.upper()
        else:
            frame[column] = [f"{v:.3f}" for v in values]
    return frame


def _upper_header(base: Base, rng: np.random.Generator) -> pd.DataFrame:
    upper = {c: c.upper() for c in base.gold.columns}
    if all(k == v for k, v in upper.items()):
        upper = {c: c.lower() for c in base.gold.columns}
    return base.gold.rename(columns=upper)


def _padded(base: Base, rng: np.random.Generator) -> pd.DataFrame:
    frame = base.gold.copy()
    for column in base.targets:
        frame[column] = " " + frame[column] + " "
    return frame


def _truncated(base: Base, rng: np.random.Generator) -> bytes:
    """Cut in the middle of a line, past the header."""
    header = base.gold_bytes.find(b"\n") + 1
    cut = header + int((len(base.gold_bytes) - header) * 0.6)
    return base.gold_bytes[: max(cut, header + 1)]


def _needs_targets(mutation: Mutation) -> Mutation:
    def guarded(base: Base, rng: np.random.Generator) -> Frame:
        return mutation(base, rng) if base.targets else None

    return guarded


MUTATIONS: dict[str, Mutation] = {
    "gold": lambda b, r: b.gold_bytes,
    "sample": lambda b, r: b.sample_bytes,
    "gold_shuffled": lambda b, r: b.gold.iloc[r.permutation(len(b.gold))],
    "gold_reversed": lambda b, r: b.gold.iloc[::-1],
    "sample_shuffled": lambda b, r: b.sample.iloc[r.permutation(len(b.sample))],
    "drop_one_row": lambda b, r: _drop_rows(b, r, 1),
    "drop_tenth_of_rows": lambda b, r: _drop_rows(b, r, max(2, len(b.gold) // 10)),
    "extra_duplicate_row": lambda b, r: pd.concat(
        [b.gold, b.gold.iloc[[int(r.integers(len(b.gold)))]]], ignore_index=True
    ),
    "extra_unknown_row": _extra_unknown_row,
    "duplicate_id": _duplicate_id,
    "unknown_id": _unknown_id,
    "no_id_column": lambda b, r: b.gold.drop(columns=b.id_col),
    "no_target_column": _needs_targets(lambda b, r: b.gold.drop(columns=b.targets[0])),
    "id_column_renamed": lambda b, r: b.gold.rename(columns={b.id_col: b.id_col + "_x"}),
    "target_column_renamed": _needs_targets(
        lambda b, r: b.gold.rename(columns={b.targets[0]: b.targets[0] + "_x"})
    ),
    "header_case_changed": _upper_header,
    "columns_reversed": lambda b, r: b.gold[b.gold.columns[::-1]],
    "extra_column": lambda b, r: b.gold.assign(parity_extra="0"),
    "blank_cell": _needs_targets(lambda b, r: _set_cell(b, r, "")),
    "blank_target_column": _needs_targets(
        lambda b, r: _with_targets(b, b.targets[0], [""] * len(b.gold))
    ),
    "nan_cell": _needs_targets(lambda b, r: _set_cell(b, r, "nan")),
    "text_cell": _needs_targets(lambda b, r: _set_cell(b, r, "not a value")),
    "huge_value": _needs_targets(lambda b, r: _set_cell(b, r, "1e308")),
    "many_huge_values": _needs_targets(_many_huge),
    "negative_value": _needs_targets(lambda b, r: _set_cell(b, r, "-1")),
    "out_of_range_value": _needs_targets(lambda b, r: _set_cell(b, r, "2")),
    "noisy": _needs_targets(lambda b, r: _noisy(b, r, scale=0.3, share=0.2)),
    "slightly_noisy": _needs_targets(lambda b, r: _noisy(b, r, scale=0.01, share=0.03)),
    "labels_swapped": _needs_targets(
        lambda b, r: _with_targets(
            b, b.targets[0], list(b.gold[b.targets[0]].iloc[r.permutation(len(b.gold))])
        )
    ),
    "constant": _needs_targets(
        lambda b, r: b.gold.assign(**{c: b.gold[c].iloc[0] for c in b.targets})
    ),
    "half_sample": _needs_targets(_half_sample),
    "ids_reformatted": _ids_reformatted,
    "values_reformatted": _needs_targets(_values_reformatted),
    "padded_cells": _needs_targets(_padded),
    "quoted_everything": lambda b, r: to_bytes(b.gold, quoting=csv.QUOTE_ALL),
    "crlf_line_endings": lambda b, r: to_bytes(b.gold).replace(b"\n", b"\r\n"),
    "utf8_bom": lambda b, r: b"\xef\xbb\xbf" + b.gold_bytes,
    "truncated": _truncated,
    "header_only": lambda b, r: (",".join(b.gold.columns) + "\n").encode(),
    "empty_file": lambda b, r: b"",
    "semicolon_separated": lambda b, r: to_bytes(b.gold, sep=";"),
}
"""Mutation name -> what it makes of the base; the order is the order of the submissions."""


def load_base(competition_id: str, data_dir: Path) -> Base:
    """The gold and sample submissions of a prepared fixture, as text frames and bytes."""
    from ..graders import get_grader

    spec = get_grader(competition_id)
    if spec is None:
        raise ValueError(f"no grader for {competition_id!r}")
    prepared = Path(data_dir) / competition_id / "prepared"
    sample_path = prepared / spec.sample_submission
    sample = read_text_frame(sample_path)
    if spec.gold_submission:
        gold_path = prepared / "private" / spec.gold_submission
        gold, gold_bytes = read_text_frame(gold_path), gold_path.read_bytes()
    else:
        answers = read_text_frame(prepared / "private" / spec.answers)
        if set(sample.columns) <= set(answers.columns):
            gold = answers[list(sample.columns)]
            gold_bytes = to_bytes(gold)
        else:  # the answers are not in submission form: mutate the sample instead
            gold, gold_bytes = sample, sample_path.read_bytes()
    id_col = _id_col(gold)
    targets = [str(c) for c in gold.columns if c != id_col]
    return Base(gold, sample, gold_bytes, sample_path.read_bytes(), id_col, targets)


def _rng(competition_id: str, name: str) -> np.random.Generator:
    words = [MUTATION_SEED, zlib.crc32(competition_id.encode()), zlib.crc32(name.encode())]
    return np.random.default_rng(words)


def competition_mutations(competition_id: str) -> dict[str, Mutation]:
    """Mutations of one competition's own cell format, after the generic ones: the objects of
    box submissions (``box_mutations``), encoded masks (``mask_mutations``), answer spans
    (``answer_mutations``); none for most competitions."""
    from .answer_mutations import answer_mutations
    from .box_mutations import box_mutations
    from .mask_mutations import mask_mutations

    return {
        **box_mutations(competition_id),
        **mask_mutations(competition_id),
        **answer_mutations(competition_id),
    }


def parity_submissions(competition_id: str, data_dir: Path) -> list[Submission]:
    """The gold file, the sample and every applicable mutation, in :data:`MUTATIONS` order,
    then the competition's own (:func:`competition_mutations`)."""
    base = load_base(competition_id, data_dir)
    out: list[Submission] = []
    for name, mutation in {**MUTATIONS, **competition_mutations(competition_id)}.items():
        made = mutation(base, _rng(competition_id, name))
        if made is None:
            continue
        content = made if isinstance(made, bytes) else to_bytes(made)
        out.append(Submission(name, content))
    return out
