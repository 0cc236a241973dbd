"""playground-series-s3e18: original ids in shuffled order, 31 descriptors, EC1-EC6 (0/1);
only EC1 and EC2 are submitted.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, bernoulli, write_split_files

_S3E18_FEATURES = [
    "BertzCT",
    "Chi1",
    "Chi1n",
    "Chi1v",
    "Chi2n",
    "Chi2v",
    "Chi3v",
    "Chi4n",
    "EState_VSA1",
    "EState_VSA2",
    "ExactMolWt",
    "FpDensityMorgan1",
    "FpDensityMorgan2",
    "FpDensityMorgan3",
    "HallKierAlpha",
    "HeavyAtomMolWt",
    "Kappa3",
    "MaxAbsEStateIndex",
    "MinEStateIndex",
    "NumHeteroatoms",
    "PEOE_VSA10",
    "PEOE_VSA14",
    "PEOE_VSA6",
    "PEOE_VSA7",
    "PEOE_VSA8",
    "SMR_VSA10",
    "SMR_VSA5",
    "SlogP_VSA3",
    "VSA_EState9",
    "fr_COO",
    "fr_COO2",
]
_S3E18_COUNTS = ("NumHeteroatoms", "fr_COO", "fr_COO2")
_S3E18_NEGATIVE = ("HallKierAlpha", "MinEStateIndex")
_S3E18_EC_SHIFT = (0.8, 1.5, -0.6, -0.8, -0.7, -1.2)  # prevalences like Kaggle's: EC2 most common


def _s3e18_rows(rng: np.random.Generator, ids: np.ndarray) -> pd.DataFrame:
    n = len(ids)
    latent = rng.normal(size=(n, 4))
    floats = [name for name in _S3E18_FEATURES if name not in _S3E18_COUNTS]
    mixing = rng.normal(0, 0.5, (4, len(floats)))
    scale = rng.uniform(1, 300, len(floats))
    values = np.exp(latent @ mixing + rng.normal(0, 0.2, (n, len(floats)))) * scale
    columns: dict[str, np.ndarray] = {"id": ids}
    for k, name in enumerate(floats):
        sign = -1 if name in _S3E18_NEGATIVE else 1
        columns[name] = (sign * values[:, k]).round(6)
    columns["NumHeteroatoms"] = rng.poisson(np.exp(1.8 + 0.3 * latent[:, 0]))
    columns["fr_COO"] = rng.poisson(np.exp(-1.2 + 0.5 * latent[:, 3]))
    columns["fr_COO2"] = columns["fr_COO"].copy()
    columns = {name: columns[name] for name in ["id", *_S3E18_FEATURES]}
    effects = latent @ rng.normal(0, 1.2, (4, 6)) + rng.normal(0, 0.5, (n, 6))
    for k, shift in enumerate(_S3E18_EC_SHIFT):
        columns[f"EC{k + 1}"] = bernoulli(rng, effects[:, k] + shift)
    return pd.DataFrame(columns)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n_train, n_test = size.n_train, size.n_test
    frame = _s3e18_rows(rng, rng.permutation(n_train + n_test))
    test, train = frame.iloc[:n_test], frame.iloc[n_test:]
    train.to_csv(public / "train.csv", index=False)
    sample = pd.DataFrame({"id": test["id"], "EC1": 0.5, "EC2": 0.5})
    write_split_files(public, private, test, [f"EC{k}" for k in range(1, 7)], sample)
