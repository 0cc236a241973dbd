"""tabular-playground-series-may-2022: ids renumbered (train 0.., test continuing), f_27 a
10-letter string, target 0/1; ``private/gold_submission.csv`` holds ``id,target``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, bernoulli, spans, write_csv, write_split_files


def _tps_may_rows(rng: np.random.Generator, ids: np.ndarray) -> pd.DataFrame:
    n = len(ids)
    columns: dict[str, np.ndarray] = {"id": ids}
    columns |= {f"f_{k:02d}": rng.normal(0, 1, n).round(6) for k in range(7)}
    columns |= {f"f_{k:02d}": rng.poisson(1 + k % 5, n) for k in range(7, 19)}
    columns |= {f"f_{k:02d}": rng.normal(0, 2.5, n).round(6) for k in range(19, 27)}
    letter_p = 0.6 ** np.arange(20)
    letters = rng.choice(20, (n, 10), p=letter_p / letter_p.sum()).astype(np.uint8)
    columns["f_27"] = (letters + ord("A")).view("S10").ravel().astype(str)
    columns["f_28"] = rng.normal(0, 240, n).round(6)
    columns["f_29"] = (rng.random(n) < 0.35).astype(np.int64)
    columns["f_30"] = rng.integers(0, 3, n)
    logit = (
        0.9 * columns["f_00"]
        - 0.7 * columns["f_01"]
        + 0.25 * columns["f_21"]
        + 0.3 * (columns["f_07"] - 3)
        + 0.5 * ((letters == 0).sum(axis=1) - 4)
        + 0.8 * columns["f_29"] * (columns["f_30"] - 1)
    )
    columns["target"] = bernoulli(rng, logit)
    return pd.DataFrame(columns)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n_train, n_test = size.n_train, size.n_test
    train = (_tps_may_rows(rng, np.arange(s.start, s.stop)) for s in spans(n_train))
    write_csv(public / "train.csv", train)
    test = _tps_may_rows(rng, np.arange(n_train, n_train + n_test))
    sample = pd.DataFrame({"id": test["id"], "target": 0.5})
    write_split_files(public, private, test, ["target"], sample)
    test[["id", "target"]].to_csv(private / "gold_submission.csv", index=False)
