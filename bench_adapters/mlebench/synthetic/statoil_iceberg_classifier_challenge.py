"""statoil-iceberg-classifier-challenge: 75x75 radar images in two polarisations (``band_1``
HH, ``band_2`` HV, in dB), each of a ship or an iceberg (``is_iceberg``, Kaggle's share).

The sea is speckled noise whose brightness falls with the incidence angle; the target is a
bright blob near the centre. A ship is small, very bright and strong in the cross-polarised
band; an iceberg is larger, dimmer and weak in it: the peak brightness of each band and the
blob's size tell them apart. Some incidence angles are missing (``"na"``), as in Kaggle's
training data.

Public: ``train.json.7z`` (``train.json``: a JSON list of ``{id, band_1, band_2, inc_angle,
is_iceberg}``, 5,625 floats a band), ``test.json.7z`` (``test.json``, without ``is_iceberg``)
and ``sample_submission.csv.7z`` (``sample_submission.csv``). Private: ``test.csv``
(``id,is_iceberg`` as 0/1) and ``sample_submission.csv`` (``is_iceberg`` = 0.5, the sample
the grader reads). Ids are 8 hex digits; rows are in the shuffled order of upstream's split.
Writing the ``.7z`` archives needs py7zr (the ``dev`` extra).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, at_least, hex_ids, split

SIDE = 75
ICEBERG_SHARE = 0.469
MISSING_ANGLE_SHARE = 0.08


def radar(rng: np.random.Generator, iceberg: bool, angle: float) -> tuple[list[float], list[float]]:
    """The two bands of one image, row by row, in dB."""
    y, x = np.mgrid[0:SIDE, 0:SIDE]
    cy, cx = rng.normal(SIDE / 2, 4, 2)
    sigma = rng.uniform(4, 7) if iceberg else rng.uniform(1.5, 3)
    blob = np.exp(-((y - cy) ** 2 + (x - cx) ** 2) / (2 * sigma**2))
    sea = -20 - 0.2 * (angle - 30)
    band_1 = (
        sea
        + rng.normal(0, 2.2, (SIDE, SIDE))
        + blob * (rng.uniform(8, 14) if iceberg else rng.uniform(16, 26))
    )
    band_2 = (
        sea
        - 7
        + rng.normal(0, 2.2, (SIDE, SIDE))
        + blob * (rng.uniform(2, 6) if iceberg else rng.uniform(10, 18))
    )
    return band_1.round(4).ravel().tolist(), band_2.round(4).ravel().tolist()


def seven_zip(source: Path, archive: Path) -> None:
    """``archive`` holding ``source`` under its own name, as upstream's py7zr calls write (LZMA2
    at a fast level: the same format, a little larger)."""
    try:
        import py7zr
    except ImportError:
        raise RuntimeError(
            "statoil-iceberg-classifier-challenge's files are .7z archives: pip install py7zr "
            "(or this package's dev extra)"
        ) from None
    fast = [{"id": py7zr.FILTER_LZMA2, "preset": 1}]  # the default level takes minutes
    with py7zr.SevenZipFile(archive, "w", filters=fast) as out:
        out.write(source, arcname=source.name)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    labels = at_least(rng.random(n) < ICEBERG_SHARE, 2, rng)
    ids = hex_ids(rng, n, 8)
    records = []
    for sample_id, label in zip(ids, labels, strict=True):
        angle = float(rng.uniform(30, 46))
        band_1, band_2 = radar(rng, bool(label), angle)
        shown: float | str = "na" if rng.random() < MISSING_ANGLE_SHARE else round(angle, 4)
        records.append({"id": str(sample_id), "band_1": band_1, "band_2": band_2,
                        "inc_angle": shown, "is_iceberg": int(label)})  # fmt: skip
    train_rows, test_rows = split(rng, n, size.n_test)
    answers = pd.DataFrame(
        {"id": [records[k]["id"] for k in test_rows],
         "is_iceberg": [records[k]["is_iceberg"] for k in test_rows]}
    )  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        for name, rows, keep_label in (("train", train_rows, True), ("test", test_rows, False)):
            path = Path(tmp) / f"{name}.json"
            chosen = [records[k] for k in rows]
            if not keep_label:
                chosen = [{k: v for k, v in r.items() if k != "is_iceberg"} for r in chosen]
            path.write_text(json.dumps(chosen), encoding="utf-8")
            seven_zip(path, public / f"{name}.json.7z")
    answers.to_csv(private / "test.csv", index=False)
    answers.assign(is_iceberg=0.5).to_csv(private / "sample_submission.csv", index=False)
    seven_zip(private / "sample_submission.csv", public / "sample_submission.csv.7z")
