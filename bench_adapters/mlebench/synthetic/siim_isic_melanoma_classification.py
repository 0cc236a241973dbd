"""siim-isic-melanoma-classification: dermoscopy photographs of one skin lesion each, with
patient metadata. Benign moles are small, round and evenly brown; a melanoma (``target`` 1)
is larger, with a ragged border and blue-black and red patches, and its patients are older.
Melanomas are rare, as on Kaggle (at least a few in every file).

Public: ``train.csv`` (``image_name,patient_id,sex,age_approx,
anatom_site_general_challenge,diagnosis,benign_malignant,target``), ``test.csv`` (the first
five), ``jpeg/train/<image_name>.jpg``, ``jpeg/test/<image_name>.jpg``,
``sample_submission.csv`` (``image_name,target`` = 0). Private: ``test.csv``
(``image_name,target``). Names look like ``ISIC_0123456`` and patients like ``IP_0123456``;
some sex, age and site cells are blank. Not written: the DICOM copies (``train/*.dcm``,
``test/*.dcm``) and the TFRecords upstream also ships, which need libraries this package
does not depend on; the JPEGs carry the same images.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size, at_least, blank
from .imaging import Canvas, blob, jitter, save

SITES = ["torso", "lower extremity", "upper extremity", "head/neck", "palms/soles", "oral/genital"]
SITE_SHARES = [0.51, 0.26, 0.15, 0.06, 0.01, 0.01]
BENIGN = ["unknown", "nevus", "seborrheic keratosis", "lentigo NOS", "lichenoid keratosis"]
BENIGN_SHARES = [0.80, 0.16, 0.02, 0.01, 0.01]
MELANOMA_SHARE = 0.03


def draw(rng: np.random.Generator, side: int, melanoma: bool) -> Image.Image:
    height = round(side * 2 / 3)
    canvas = Canvas(side, height, jitter(rng, (215, 160, 140), 25))
    cx, cy = rng.uniform(0.4, 0.6, 2)
    if melanoma:
        canvas.polygon(
            blob(rng, cx, cy, rng.uniform(0.2, 0.3), 0.35, n=18), jitter(rng, (90, 50, 35), 15)
        )
        for colour in ((40, 40, 80), (20, 15, 15), (150, 50, 50)):
            x, y = cx + rng.uniform(-0.1, 0.1), cy + rng.uniform(-0.1, 0.1)
            canvas.polygon(blob(rng, x, y, 0.07, 0.4), jitter(rng, colour, 15))
    else:
        radius = rng.uniform(0.08, 0.18)
        canvas.polygon(blob(rng, cx, cy, radius, 0.06, n=18), jitter(rng, (130, 80, 50), 20))
    return canvas.finish(rng, noise=6, blur=0.8)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    # Upstream takes two TFRecord files' images as the test set and keeps the raw row order.
    test_rows = np.sort(rng.choice(n, size.n_test, replace=False))
    train_rows = np.setdiff1d(np.arange(n), test_rows)
    target = (rng.random(n) < MELANOMA_SHARE).astype(np.int64)
    for part in (train_rows, test_rows):
        target[part] = at_least(target[part], 3, rng)
    names = rng.choice(10**7, n, replace=False)
    patients = rng.choice(10**7, max(1, n // 16), replace=False)[
        rng.integers(0, max(1, n // 16), n)
    ]
    age = np.clip(np.round(rng.normal(48 + 12 * target, 14) / 5) * 5, 0, 90)
    diagnosis = np.where(target == 1, "melanoma", rng.choice(BENIGN, n, p=BENIGN_SHARES))
    frame = pd.DataFrame(
        {
            "image_name": [f"ISIC_{k:07d}" for k in names],
            "patient_id": [f"IP_{k:07d}" for k in patients],
            "sex": blank(rng, rng.choice(["male", "female"], n, p=[0.52, 0.48]), 0.002),
            "age_approx": blank(rng, age, 0.002).astype(float),
            "anatom_site_general_challenge": blank(rng, rng.choice(SITES, n, p=SITE_SHARES), 0.016),
            "diagnosis": diagnosis,
            "benign_malignant": np.where(target == 1, "malignant", "benign"),
            "target": target,
        }
    )
    train, test = frame.iloc[train_rows], frame.iloc[test_rows]
    for folder, rows in (("train", train), ("test", test)):
        for name, label in zip(rows["image_name"], rows["target"], strict=True):
            save(draw(rng, size.side, bool(label)), public / "jpeg" / folder / f"{name}.jpg")
    train.to_csv(public / "train.csv", index=False)
    test.iloc[:, :5].to_csv(public / "test.csv", index=False)
    test[["image_name", "target"]].assign(target=0).to_csv(
        public / "sample_submission.csv", index=False
    )
    test[["image_name", "target"]].to_csv(private / "test.csv", index=False)
