"""rsna-miccai-brain-tumor-radiogenomic-classification: brain MRI studies, one per patient, each
with four series (FLAIR, T1w, T1wCE, T2w) of axial DICOM slices through a head with a tumour;
``MGMT_value`` is 1 when the tumour's MGMT promoter is methylated (about half the patients, as
on Kaggle). The signal, weak as Kaggle's is: methylated tumours are smaller and enhance evenly
on T1wCE, unmethylated ones are larger with a bright rim.

Public: ``train/<BraTS21ID>/<series>/Image-<n>.dcm`` and the same under ``test/``,
``train_labels.csv`` (``BraTS21ID,MGMT_value``), ``sample_submission.csv``
(``BraTS21ID,MGMT_value`` = 0.5). Private: ``test.csv`` (``BraTS21ID,MGMT_value``). Ids are
five-digit, zero-padded strings (``00000``, sparse up to ~01010); rows are in the shuffled order
of upstream's split. The DICOM files are minimal MR images (16-bit, uncompressed; see
``dicom``). Payload cap: slices of ``side`` pixels, ``side // 4`` of them a series (Kaggle:
512 or 256 pixels, tens to hundreds of slices).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, at_least, split
from .dicom import MR_IMAGE_STORAGE, uid, write_dicom

SERIES = ["FLAIR", "T1w", "T1wCE", "T2w"]
BRAIN = {"FLAIR": 700, "T1w": 900, "T1wCE": 850, "T2w": 600}
TUMOUR = {"FLAIR": 1500, "T1w": 650, "T1wCE": 1200, "T2w": 1400}


def volume(
    rng: np.random.Generator, side: int, depth: int, methylated: bool
) -> dict[str, np.ndarray]:
    """One study: a (depth, side, side) uint16 volume per series."""
    z, y, x = np.mgrid[0:depth, 0:side, 0:side].astype(np.float32)
    z, y, x = (z + 0.5) / depth - 0.5, (y + 0.5) / side - 0.5, (x + 0.5) / side - 0.5
    head = (x / 0.42) ** 2 + (y / 0.48) ** 2 + (z / 0.6) ** 2 <= 1
    cx, cy, cz = rng.uniform(-0.15, 0.15, 3)
    radius = rng.uniform(0.07, 0.12) if methylated else rng.uniform(0.11, 0.17)
    distance = np.sqrt((x - cx) ** 2 + (y - cy) ** 2 + ((z - cz) * 0.7) ** 2)
    tumour = distance <= radius
    rim = tumour & (distance >= radius * 0.7)
    out = {}
    for series in SERIES:
        image = np.where(head, BRAIN[series], 20).astype(np.float32)
        image[tumour] = TUMOUR[series]
        if series == "T1wCE" and not methylated:
            image[tumour & ~rim] = BRAIN[series] * 0.8
            image[rim] = TUMOUR[series] * 1.3
        image *= rng.uniform(0.9, 1.1)
        image += rng.normal(0, 40, image.shape)
        out[series] = np.clip(image, 0, 4000).astype(np.uint16)
    return out


def write_study(
    rng: np.random.Generator, folder: Path, patient: str, side: int, methylated: bool
) -> None:
    depth = max(4, side // 4)
    study = uid(rng)
    for number, (series, pixels) in enumerate(
        volume(rng, side, depth, methylated).items(), start=1
    ):
        (folder / series).mkdir(parents=True)
        series_uid = uid(rng)
        for k in range(depth):
            instance = uid(rng)
            elements = {
                (0x0008, 0x0060): ("CS", "MR"),
                (0x0008, 0x103E): ("LO", series),
                (0x0010, 0x0020): ("LO", patient),
                (0x0018, 0x0050): ("DS", "1"),
                (0x0020, 0x000D): ("UI", study),
                (0x0020, 0x000E): ("UI", series_uid),
                (0x0020, 0x0011): ("IS", str(number)),
                (0x0020, 0x0013): ("IS", str(k + 1)),
                (0x0020, 0x0032): ("DS", f"-120\\-120\\{k - depth // 2}"),
                (0x0020, 0x0037): ("DS", "1\\0\\0\\0\\1\\0"),
                (0x0028, 0x0030): ("DS", f"{240 / side:g}\\{240 / side:g}"),
            }
            write_dicom(
                folder / series / f"Image-{k + 1}.dcm",
                pixels[k],
                MR_IMAGE_STORAGE,
                instance,
                elements,
            )


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    ids = np.sort(rng.choice(1012, n, replace=False)) if n <= 1012 else np.arange(n)
    labels = (rng.random(n) < 0.52).astype(np.int64)
    train_rows, test_rows = split(rng, n, size.n_test)
    for part in (train_rows, test_rows):  # both classes in each file (AUC needs both)
        labels[part] = at_least(labels[part], 2, rng)
    frame = pd.DataFrame({"BraTS21ID": [f"{k:05d}" for k in ids], "MGMT_value": labels})
    train, test = frame.iloc[train_rows], frame.iloc[test_rows]
    for name, rows in (("train", train), ("test", test)):
        for patient, label in zip(rows["BraTS21ID"], rows["MGMT_value"], strict=True):
            write_study(rng, public / name / patient, patient, size.side, bool(label))
    train.to_csv(public / "train_labels.csv", index=False)
    test.to_csv(private / "test.csv", index=False)
    test.assign(MGMT_value=0.5).to_csv(public / "sample_submission.csv", index=False)
