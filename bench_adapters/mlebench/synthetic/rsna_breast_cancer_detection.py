"""rsna-breast-cancer-detection: screening mammograms, usually a CC and an MLO view of each
breast of each patient, as 16-bit DICOM. ``cancer`` (per breast, about 2% as on Kaggle) shows
as a bright, irregular mass in both views of that breast; dense tissue (density A-D) adds
benign brightness to every breast.

Public: ``train.csv`` (Kaggle's 14 columns: ``site_id, patient_id, image_id, laterality, view,
age, cancer, biopsy, invasive, BIRADS, implant, density, machine_id,
difficult_negative_case``), ``test.csv`` (``site_id, patient_id, image_id, laterality, view,
age, implant, machine_id, prediction_id`` = ``<patient_id>_<laterality>``),
``train_images/<patient_id>/<image_id>.dcm`` and ``test_images/...``,
``sample_submission.csv`` (``prediction_id,cancer`` = the training images' cancer rate).
Private: ``answers.csv`` (``prediction_id,cancer``, one row per breast, sorted). As upstream,
train and test hold different patients. The DICOM files are minimal, uncompressed MG images
(Kaggle's are JPEG 2000 or JPEG-LS compressed); payload cap: ``side`` pixels tall, 0.8 of it
wide (Kaggle: several thousand).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size
from .dicom import MAMMOGRAPHY_FOR_PRESENTATION, uid, write_dicom

CANCER_SHARE = 0.02
"""Of breasts."""
MACHINES = [21, 29, 48, 49, 93, 170, 190, 197, 210, 216]
DENSITY = ["A", "B", "C", "D"]


def breasts(rng: np.random.Generator, patients: np.ndarray) -> pd.DataFrame:
    """One row per breast: patient facts and the breast's cancer label."""
    n = len(patients)
    people = pd.DataFrame(
        {
            "site_id": rng.choice([1, 2], n),
            "patient_id": patients,
            "age": np.where(rng.random(n) < 0.01, np.nan, rng.integers(35, 90, n).astype(float)),
            "implant": (rng.random(n) < 0.03).astype(int),
            "machine_id": rng.choice(MACHINES, n),
            "density": pd.Series(rng.choice(DENSITY, n)).mask(rng.random(n) < 0.45),
        }
    )
    out = pd.concat([people.assign(laterality=side) for side in ("L", "R")])
    out = out.sort_values(["patient_id", "laterality"], kind="stable").reset_index(drop=True)
    out["cancer"] = (rng.random(len(out)) < CANCER_SHARE).astype(int)
    return out


def images(rng: np.random.Generator, breast_rows: pd.DataFrame) -> pd.DataFrame:
    """One row per image: a CC and an MLO view of each breast, now and then an extra one."""
    views = [
        ["CC", "MLO"] + (["CC"] if rng.random() < 0.1 else []) for _ in range(len(breast_rows))
    ]
    out = breast_rows.loc[np.repeat(breast_rows.index, [len(v) for v in views])].copy()
    out["view"] = [v for group in views for v in group]
    out["image_id"] = rng.choice(2**31 - 1, len(out), replace=False)
    cancer = out["cancer"].to_numpy()
    out["biopsy"] = np.where(cancer == 1, 1, (rng.random(len(out)) < 0.03).astype(int))
    out["invasive"] = np.where(cancer == 1, (rng.random(len(out)) < 0.7).astype(int), 0)
    birads = rng.choice([0.0, 1.0, 2.0, np.nan], len(out), p=[0.05, 0.4, 0.05, 0.5])
    out["BIRADS"] = np.where(cancer == 1, 0.0, birads)
    out["difficult_negative_case"] = (cancer == 0) & (out["biopsy"].to_numpy() == 1)
    return out.reset_index(drop=True)


def draw(rng: np.random.Generator, side: int, row: pd.Series) -> np.ndarray:
    height, width = side, max(4, round(side * 0.8))
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    x = x / width if row["laterality"] == "L" else 1 - x / width  # chest wall on the image edge
    y = y / height - 0.5
    breast = (x / 0.75) ** 2 + (y / 0.45) ** 2 <= 1
    image = np.where(breast, 900.0, 50.0)
    density = {"A": 0.5, "B": 1.0, "C": 1.5, "D": 2.0}.get(row["density"], 1.0)  # blank: B
    for _ in range(int(rng.integers(2, 6))):
        cx, cy, r = rng.uniform(0.1, 0.5), rng.uniform(-0.3, 0.3), rng.uniform(0.05, 0.15)
        image += 250 * density * np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * r**2)) * breast
    if row["cancer"]:
        cx, cy = rng.uniform(0.2, 0.5), rng.uniform(-0.2, 0.2)
        angle = np.arctan2(y - cy, x - cx)
        radius = 0.06 * (1 + 0.35 * np.sin(7 * angle + rng.uniform(0, 6)))
        image[(np.hypot(x - cx, y - cy) <= radius) & breast] = 2600.0
    image += rng.normal(0, 30, image.shape)
    return np.clip(image, 0, 4095).astype(np.uint16)


def write_images(rng: np.random.Generator, folder: Path, rows: pd.DataFrame, side: int) -> None:
    for n, (_, row) in enumerate(rows.iterrows()):
        patient = str(row["patient_id"])
        (folder / patient).mkdir(parents=True, exist_ok=True)
        elements = {
            (0x0008, 0x0060): ("CS", "MG"),
            (0x0010, 0x0020): ("LO", patient),
            (0x0018, 0x5101): ("CS", row["view"]),
            (0x0020, 0x000D): ("UI", uid(rng)),
            (0x0020, 0x000E): ("UI", uid(rng)),
            (0x0020, 0x0013): ("IS", "1"),
            (0x0020, 0x0062): ("CS", row["laterality"]),
        }
        path = folder / patient / f"{row['image_id']}.dcm"
        pixels = draw(rng, side, row)
        # every other mammogram compressed, as Kaggle's all are (RLE here, JPEG 2000 there)
        write_dicom(path, pixels, MAMMOGRAPHY_FOR_PRESENTATION, uid(rng), elements, n % 2 == 1)


TRAIN = [
    "site_id",
    "patient_id",
    "image_id",
    "laterality",
    "view",
    "age",
    "cancer",
    "biopsy",
    "invasive",
    "BIRADS",
    "implant",
    "density",
    "machine_id",
    "difficult_negative_case",
]
TEST = [
    "site_id",
    "patient_id",
    "image_id",
    "laterality",
    "view",
    "age",
    "implant",
    "machine_id",
    "prediction_id",
]


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    patients = np.sort(rng.choice(np.arange(10_000, 66_000), n, replace=False))
    in_test = np.zeros(n, bool)
    in_test[rng.choice(n, size.n_test, replace=False)] = True
    rows = breasts(rng, patients)
    test_breast = np.repeat(in_test, 2)  # rows come patient by patient, L then R
    for part in (test_breast, ~test_breast):  # a few cancers in each split, however small
        short = 2 - int(rows.loc[part, "cancer"].sum())
        if short > 0:
            rows.loc[rng.choice(np.flatnonzero(part), short, replace=False), "cancer"] = 1
    every = images(rng, rows)
    test_patients = set(patients[in_test])
    test = every[every["patient_id"].isin(test_patients)].copy()
    train = every[~every["patient_id"].isin(test_patients)]
    write_images(rng, public / "train_images", train, size.side)
    write_images(rng, public / "test_images", test, size.side)
    train[TRAIN].to_csv(public / "train.csv", index=False)
    test["prediction_id"] = test["patient_id"].astype(str) + "_" + test["laterality"]
    test[TEST].to_csv(public / "test.csv", index=False)
    answers = test.groupby("prediction_id")["cancer"].first().reset_index()
    answers.to_csv(private / "answers.csv", index=False)
    answers.assign(cancer=train["cancer"].mean()).to_csv(
        public / "sample_submission.csv", index=False
    )
