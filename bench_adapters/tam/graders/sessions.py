"""multimodal/medium (Amazon KDD Cup 2023, task 1): next-product prediction, MRR@100.

The spec's format, not upstream's grader's CSV of list literals matched by row order: a parquet
file, one row per test session, with ``session_id`` and ``next_item_prediction``, a list of
exactly 100 product ids (ASINs, text), most confident first. Sessions are matched by id, in
any order. Score: the mean reciprocal rank of the true next product within the 100 (0 when
absent; a repeated id counts where it first appears). Answers: ``session_id,next_item``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from bench_adapters.tam import metrics
from bench_adapters.tam.graders.common import Invalid, aligned, one_line, read_table

TOP = 100
COLUMN = "next_item_prediction"


def read_parquet(path: Path) -> pd.DataFrame:
    try:
        return pd.read_parquet(path)
    except Exception as e:  # pyarrow raises many kinds for a file that is not parquet
        raise Invalid(f"{path.name} is not a readable parquet file: {one_line(e)}") from None


def _items(cell: object, row: int) -> list[str]:
    if not isinstance(cell, list | tuple | np.ndarray):
        raise Invalid(f"{COLUMN} on row {row} is not a list ({type(cell).__name__})")
    items = [str(x) for x in cell]
    if len(items) != TOP:
        raise Invalid(f"{COLUMN} on row {row} holds {len(items)} ids; expected exactly {TOP}")
    return items


def next_product(submission: Path, answers: Path) -> float:
    sub, truth = aligned(read_parquet(submission), read_table(answers), "session_id", [COLUMN])
    ranked = [_items(cell, i + 1) for i, cell in enumerate(sub[COLUMN])]
    targets = truth["next_item"].astype(str)
    return float(
        np.mean([metrics.reciprocal_rank(r, t, TOP) for r, t in zip(ranked, targets, strict=True)])
    )


GRADERS = {"multimodal/medium": next_product}
