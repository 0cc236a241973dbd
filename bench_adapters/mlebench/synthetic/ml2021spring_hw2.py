"""ml2021spring-hw2: framewise phoneme classification (TIMIT, 39 classes). Each row is 11
consecutive frames of 39 MFCC-like values (429 float32 features); a phoneme has its own mean
spectrum, strongest in the centre frame and fading towards the edges of the window, under noise.

Public: ``timit_11/timit_11/train_11.npy`` (float32, rows x 429), ``train_label_11.npy``
(the class numbers as text, ``<U2``, as the course's files hold them) and ``test_11.npy``;
``sampleSubmission.csv`` (``Id,ClassId``, ``Id`` 0..n-1 in test order, ``ClassId`` 0).
Private: ``answers.csv`` (``Id,ClassId``). Arrays are written in chunks, so the full size
(899,641 + 330,291 rows, 2.1 GB of float32) never sits in memory at once.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, spans

N_CLASSES = 39
N_MFCC = 39
WINDOW = 11
FEATURES = N_MFCC * WINDOW


def _frames(rng: np.random.Generator, centres: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Feature rows for ``labels``: the class spectrum, weighted by distance from the centre
    frame, plus noise."""
    weights = np.exp(-0.5 * ((np.arange(WINDOW) - WINDOW // 2) / 2.5) ** 2)
    signal = centres[labels][:, None, :] * weights[None, :, None]
    noise = rng.normal(0.0, 1.0, (len(labels), WINDOW, N_MFCC))
    return (signal + noise).reshape(len(labels), FEATURES).astype(np.float32)


def _write_array(
    path: Path, rng: np.random.Generator, centres: np.ndarray, labels: np.ndarray
) -> None:
    array = np.lib.format.open_memmap(
        path, mode="w+", dtype=np.float32, shape=(len(labels), FEATURES)
    )
    for part in spans(len(labels), 100_000):
        array[part] = _frames(rng, centres, labels[part])
    array.flush()
    del array


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    folder = public / "timit_11" / "timit_11"
    folder.mkdir(parents=True)
    centres = rng.normal(0.0, 0.9, (N_CLASSES, N_MFCC))
    shares = rng.dirichlet(np.full(N_CLASSES, 3.0))  # uneven, as phonemes are
    labels = rng.choice(N_CLASSES, size.n_train + size.n_test, p=shares)
    labels[: min(N_CLASSES, len(labels))] = np.arange(min(N_CLASSES, len(labels)))
    labels = labels[rng.permutation(len(labels))]
    train, test = labels[: size.n_train], labels[size.n_train :]
    _write_array(folder / "train_11.npy", rng, centres, train)
    np.save(folder / "train_label_11.npy", train.astype(str).astype("<U2"))
    _write_array(folder / "test_11.npy", rng, centres, test)
    ids = np.arange(len(test))
    pd.DataFrame({"Id": ids, "ClassId": 0}).to_csv(public / "sampleSubmission.csv", index=False)
    pd.DataFrame({"Id": ids, "ClassId": test}).to_csv(private / "answers.csv", index=False)
