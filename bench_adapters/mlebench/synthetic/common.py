"""Pieces every generator shares: sizes, chunked CSV writing, labels with both classes, ids.

A generator module (one per competition) defines ``write(public, private, size, rng)`` and,
where a size needs a rule, ``check_size(size)``; see ``registry`` for the sizes.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

CHUNK_ROWS = 500_000


@dataclass(frozen=True)
class Size:
    """How much one synthetic dataset holds."""

    n_train: int
    """Training units (rows, images, clips, recordings or tokens: see the registry)."""
    n_test: int
    """Test units, in the same unit."""
    side: int = 0
    """Image side in pixels for image competitions (the longer side); 0 where meaningless."""


def write_csv(path: Path, frames: Iterable[pd.DataFrame], **to_csv: object) -> None:
    """Write frames one after another into one CSV with a single header."""
    for index, frame in enumerate(frames):
        frame.to_csv(
            path, index=False, mode="w" if index == 0 else "a", header=index == 0, **to_csv
        )


def spans(n: int, size: int = CHUNK_ROWS) -> Iterator[slice]:
    for start in range(0, n, size):
        yield slice(start, min(start + size, n))


def both_classes(labels: np.ndarray) -> np.ndarray:
    """Binary labels with at least one 0 and one 1 (AUC needs both)."""
    labels = labels.astype(np.int64)
    if labels.min() == labels.max():
        labels[:2] = [0, 1]
    return labels


def at_least(labels: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """Binary labels with at least ``k`` ones and ``k`` zeros (when there is room): rare
    classes still get a few examples in small fixtures."""
    labels = labels.astype(np.int64).copy()
    k = min(k, len(labels) // 2)
    for value in (1, 0):
        short = k - int((labels == value).sum())
        if short > 0:
            others = np.flatnonzero(labels != value)
            labels[rng.choice(others, short, replace=False)] = value
    return labels


def bernoulli(rng: np.random.Generator, logit: np.ndarray) -> np.ndarray:
    return both_classes(rng.random(len(logit)) < 1 / (1 + np.exp(-logit)))


def blank(rng: np.random.Generator, values: np.ndarray, share: float) -> np.ndarray:
    """The values as objects with about ``share`` of them missing (blank in the CSV)."""
    out = values.astype(object)
    out[rng.random(len(out)) < share] = np.nan
    return out


def hex_ids(rng: np.random.Generator, n: int, length: int) -> np.ndarray:
    """``n`` distinct lower-case hex strings of ``length`` characters (md5- or sha1-like)."""
    ids: set[str] = set()
    while len(ids) < n:
        raw = rng.integers(0, 16, (n - len(ids), length))
        ids.update("".join("0123456789abcdef"[d] for d in row) for row in raw)
    return np.array(sorted(ids))[rng.permutation(n)]


def split(rng: np.random.Generator, n: int, n_test: int) -> tuple[np.ndarray, np.ndarray]:
    """Row positions of a shuffled train/test split, as ``train_test_split`` returns them."""
    order = rng.permutation(n)
    return order[n_test:], order[:n_test]


def write_split_files(
    public: Path,
    private: Path,
    test: pd.DataFrame,
    targets: list[str],
    sample: pd.DataFrame,
    **to_csv: object,
) -> None:
    test.drop(columns=targets).to_csv(public / "test.csv", index=False, **to_csv)
    test.to_csv(private / "test.csv", index=False, **to_csv)
    sample.to_csv(public / "sample_submission.csv", index=False, **to_csv)


def zip_folder(folder: Path, archive: Path, prefix: str = "") -> None:
    """Zip (deflate) every file under ``folder``, named relative to it after ``prefix``, as
    upstream's ``compress`` and ``shutil.make_archive`` do."""
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                zf.write(path, arcname=prefix + path.relative_to(folder).as_posix())
