"""osic-pulmonary-fibrosis-progression: lung patients' forced vital capacity (``FVC``, ml)
measured at six to ten visits over about two years, with a baseline CT scan. Each patient's
FVC falls along a line whose slope grows with age and smoking and with the scarring the scan
shows (bright streaks in the lungs): from the first visit and the scan, a model extrapolates.

Public: ``train.csv`` (``Patient,Weeks,FVC,Percent,Age,Sex,SmokingStatus``, every visit of
the training patients), ``test.csv`` (each test patient's first visit),
``sample_submission.csv`` (``Patient_Week,FVC,Confidence`` = 2000 and 100 for every
``<Patient>_<week>`` of the answers), ``train/<Patient>/<n>.dcm`` and
``test/<Patient>/<n>.dcm``. Private: ``test.csv``: as upstream, every test patient times every
week from the test set's first to its last measured week, the visits' columns blank where
there was no visit, then ``Patient_Week`` and ``Confidence`` = 100. A tenth of the patients
(rounded up) are the test set, as upstream's split. Scans hold 8 slices of 64 by 64 pixels
(3 of 32 in the small fixture; Kaggle's hold tens to hundreds of 512 by 512).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size
from .dicom import uid, write_dicom

CT_IMAGE_STORAGE = "1.2.840.10008.5.1.4.1.1.2"
SMOKING = ["Never smoked", "Ex-smoker", "Currently smokes"]


def patient_ids(rng: np.random.Generator, n: int) -> list[str]:
    """Kaggle's form: ``ID`` and 23 digits."""
    digits = rng.integers(0, 10, (n, 23))
    return sorted({"ID" + "".join(map(str, row)) for row in digits})


def scan(rng: np.random.Generator, side: int, depth: int, scarring: float) -> np.ndarray:
    """(depth, side, side) CT values + 1024: body, two dark lungs, streaks as scarring."""
    yy, xx = np.mgrid[0:side, 0:side] / side
    body = (xx - 0.5) ** 2 / 0.2 + (yy - 0.5) ** 2 / 0.12 < 1
    lungs = ((xx - 0.32) ** 2 + (yy - 0.5) ** 2 < 0.02) | (
        (xx - 0.68) ** 2 + (yy - 0.5) ** 2 < 0.02
    )
    out = np.empty((depth, side, side))
    for k in range(depth):
        image = np.where(body, 1064.0, 24.0)
        image[lungs] = 200.0
        streaks = lungs & (rng.random((side, side)) < scarring)
        image[streaks] = 900.0
        out[k] = image + rng.normal(0, 20, (side, side))
    return np.clip(out, 0, 4095)


def write_scan(rng: np.random.Generator, folder: Path, patient: str, pixels: np.ndarray) -> None:
    folder.mkdir(parents=True)
    study, series = uid(rng), uid(rng)
    for k, image in enumerate(pixels, start=1):
        elements = {
            (0x0008, 0x0060): ("CS", "CT"),
            (0x0010, 0x0020): ("LO", patient),
            (0x0018, 0x0050): ("DS", "1.25"),
            (0x0020, 0x000D): ("UI", study),
            (0x0020, 0x000E): ("UI", series),
            (0x0020, 0x0013): ("IS", str(k)),
            (0x0028, 0x0030): ("DS", "0.7\\0.7"),
            (0x0028, 0x1052): ("DS", "-1024"),
            (0x0028, 0x1053): ("DS", "1"),
        }
        write_dicom(
            folder / f"{k}.dcm", image.astype(np.uint16), CT_IMAGE_STORAGE, uid(rng), elements
        )


def visits(rng: np.random.Generator, patient: str, scarring: float) -> pd.DataFrame:
    n = int(rng.integers(6, 11))
    weeks = np.sort(rng.choice(np.arange(-5, 134), n, replace=False))
    age = int(rng.integers(50, 89))
    sex = "Male" if rng.random() < 0.79 else "Female"
    smoking = str(rng.choice(SMOKING, p=[0.28, 0.67, 0.05]))
    start = rng.normal(3000 if sex == "Male" else 2200, 500)
    slope = -(2 + 0.05 * (age - 50) + 3 * (smoking != "Never smoked") + 40 * scarring)
    fvc = np.rint(start + slope * (weeks - weeks[0]) + rng.normal(0, 80, n)).astype(np.int64)
    expected = 4200 if sex == "Male" else 3000
    return pd.DataFrame(
        {
            "Patient": patient,
            "Weeks": weeks,
            "FVC": fvc,
            "Percent": 100 * fvc / expected,
            "Age": age,
            "Sex": sex,
            "SmokingStatus": smoking,
        }
    )


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    patients = patient_ids(rng, n)
    scarring = rng.uniform(0.0, 0.3, n)
    tables = {p: visits(rng, p, s) for p, s in zip(patients, scarring, strict=True)}
    order = rng.permutation(n)  # train_test_split of the patient groups: test first
    test_patients = [patients[k] for k in order[: size.n_test]]
    train_patients = [patients[k] for k in order[size.n_test :]]
    depth = 8 if size.side >= 64 else 3
    for folder, group in (("train", train_patients), ("test", test_patients)):
        for p in group:
            pixels = scan(rng, size.side, depth, float(scarring[patients.index(p)]))
            write_scan(rng, public / folder / p, p, pixels)
    train = pd.concat([tables[p] for p in train_patients])
    test = pd.concat([tables[p] for p in test_patients])
    train.to_csv(public / "train.csv", index=False)
    first = test.sort_values(by="Weeks").groupby("Patient").first().reset_index()
    first.to_csv(public / "test.csv", index=False)
    weeks = range(int(test["Weeks"].min()), int(test["Weeks"].max()) + 1)
    grid = pd.DataFrame(
        [(p, w) for p in test_patients for w in weeks], columns=["Patient", "Weeks"]
    )
    answers = grid.merge(test, on=["Patient", "Weeks"], how="left")
    answers["Patient_Week"] = answers["Patient"] + "_" + answers["Weeks"].astype(str)
    answers["Confidence"] = 100
    answers.to_csv(private / "test.csv", index=False)
    answers[["Patient_Week"]].assign(FVC=2000, Confidence=100).to_csv(
        public / "sample_submission.csv", index=False
    )
