"""tabular-playground-series-dec-2021: original Ids in shuffled order, Cover_Type 1-7 with
class 2 the majority, set mostly by elevation.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, spans, write_csv, write_split_files

_TPS_DEC_TERRAIN: dict[str, tuple[int, int]] = {
    "Aspect": (0, 361),
    "Slope": (0, 53),
    "Horizontal_Distance_To_Hydrology": (0, 1400),
    "Vertical_Distance_To_Hydrology": (-150, 600),
    "Horizontal_Distance_To_Roadways": (0, 7000),
    "Hillshade_9am": (0, 256),
    "Hillshade_Noon": (0, 256),
    "Hillshade_3pm": (0, 256),
    "Horizontal_Distance_To_Fire_Points": (0, 7000),
}


def _tps_dec_rows(rng: np.random.Generator, ids: np.ndarray) -> pd.DataFrame:
    n = len(ids)
    elevation = rng.normal(2980, 290, n).round().astype(np.int64)
    area = rng.choice(4, n, p=[0.26, 0.04, 0.66, 0.04])
    soil = rng.integers(0, 40, n)
    columns: dict[str, np.ndarray] = {"Id": ids, "Elevation": elevation}
    columns |= {name: rng.integers(low, high, n) for name, (low, high) in _TPS_DEC_TERRAIN.items()}
    columns |= {f"Wilderness_Area{k + 1}": (area == k).astype(np.int8) for k in range(4)}
    columns |= {f"Soil_Type{k + 1}": (soil == k).astype(np.int8) for k in range(40)}
    z = (elevation - 2980) / 290 + 0.4 * (area == 1) + rng.normal(0, 0.3, n)
    cover = np.select([z < -2.2, z < -1.6, z < 0.35, z < 1.9], [6, 3, 2, 1], default=7)
    flipped = rng.random(n) < 0.03
    cover[flipped] = rng.integers(1, 8, flipped.sum())
    columns["Cover_Type"] = cover
    return pd.DataFrame(columns)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n_train, n_test = size.n_train, size.n_test
    ids = rng.permutation(n_train + n_test)
    train_ids = ids[n_test:]
    write_csv(public / "train.csv", (_tps_dec_rows(rng, train_ids[s]) for s in spans(n_train)))
    test = _tps_dec_rows(rng, ids[:n_test])
    sample = pd.DataFrame({"Id": test["Id"], "Cover_Type": 2})
    write_split_files(public, private, test, ["Cover_Type"], sample)
