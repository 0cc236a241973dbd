"""vinbigdata-chest-xray-abnormalities-detection: chest radiographs (DICOM ``.dicom`` files)
read by three radiologists each, who box 14 kinds of finding or say "No finding" (class 14).

About 70% of images are normal, as in Kaggle's data; an abnormal one has one to three findings,
each drawn where its kind belongs (an enlarged aorta high and central, a large heart low and
wide, an effusion at a lung's base, a nodule small and round...), as a bright patch whose
texture depends on the kind: the signal a detector learns. Each radiologist boxes each finding
(sometimes missing one) with a few pixels of disagreement; a normal image has three class-14
rows with blank boxes (as does a radiologist who boxes nothing). Coordinates are whole pixels of the stand-in image (Kaggle's are about
2,500 x 3,000 pixels; these are capped at ``side``).

Public: ``train.csv`` (``image_id, class_name, class_id, rad_id, x_min, y_min, x_max, y_max``),
``train/<image_id>.dicom``, ``test/<image_id>.dicom``, ``sample_submission.csv`` (the test ids
in upstream's split order, ``14 1 0 0 1 1``). Private: ``answers.csv``, upstream's consensus
(the first row of each image and class, grouped: sorted by image and class, blank boxes as 0
and class 14's ``x_max``/``y_max`` as 1.0) and ``gold_submission.csv`` (those boxes at
confidence 1.0, one row an image, sorted by id).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .common import Size, hex_ids, split
from .dicom import uid, write_dicom

CLASSES = [
    "Aortic enlargement", "Atelectasis", "Calcification", "Cardiomegaly", "Consolidation",
    "ILD", "Infiltration", "Lung Opacity", "Nodule/Mass", "Other lesion", "Pleural effusion",
    "Pleural thickening", "Pneumothorax", "Pulmonary fibrosis", "No finding",
]  # fmt: skip
NO_FINDING = 14
PLACES = {  # class -> (centre x, centre y, width, height) as fractions of the image
    0: (0.52, 0.3, 0.12, 0.12), 1: (0.3, 0.7, 0.15, 0.1), 2: (0.6, 0.35, 0.06, 0.06),
    3: (0.5, 0.68, 0.4, 0.2), 4: (0.7, 0.6, 0.18, 0.18), 5: (0.3, 0.5, 0.2, 0.35),
    6: (0.7, 0.45, 0.16, 0.2), 7: (0.3, 0.45, 0.2, 0.22), 8: (0.65, 0.4, 0.07, 0.07),
    9: (0.5, 0.85, 0.2, 0.1), 10: (0.2, 0.8, 0.14, 0.12), 11: (0.75, 0.2, 0.15, 0.08),
    12: (0.25, 0.2, 0.18, 0.15), 13: (0.72, 0.75, 0.2, 0.2),
}  # fmt: skip
SHARES = np.array([21, 3, 4, 15, 2, 4, 3, 6, 6, 5, 7, 13, 1, 10], float)
"""Roughly Kaggle's mix of findings (aortic enlargement and cardiomegaly are the commonest)."""
RADIOLOGISTS = [f"R{k}" for k in range(1, 18)]
DIGITAL_XRAY = "1.2.840.10008.5.1.4.1.1.1.1"
CORNERS = ["x_min", "y_min", "x_max", "y_max"]


def findings(rng: np.random.Generator, side: int) -> list[tuple[int, float, float, float, float]]:
    """An abnormal image's findings: (class, x_min, y_min, x_max, y_max) in pixels."""
    kinds = rng.choice(14, int(rng.integers(1, 4)), replace=False, p=SHARES / SHARES.sum())
    width, height = round(side * 0.8), side
    out = []
    for k in sorted(int(c) for c in kinds):
        cx, cy, w, h = PLACES[k]
        cx, cy = cx + rng.normal(0, 0.03), cy + rng.normal(0, 0.03)
        w, h = w * rng.uniform(0.8, 1.2), h * rng.uniform(0.8, 1.2)
        x0, x1 = max(0.0, (cx - w / 2) * width), min(width - 1.0, (cx + w / 2) * width)
        y0, y1 = max(0.0, (cy - h / 2) * height), min(height - 1.0, (cy + h / 2) * height)
        out.append((k, x0, y0, max(x1, x0 + 2), max(y1, y0 + 2)))
    return out


def radiograph(rng: np.random.Generator, side: int, boxes: list[Any]) -> np.ndarray:
    height, width = side, round(side * 0.8)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    image = np.full((height, width), 2400.0, np.float32)
    for cx in (0.3, 0.7):
        image[((xx / width - cx) / 0.18) ** 2 + ((yy / height - 0.5) / 0.35) ** 2 < 1] = 800.0
    for k, x0, y0, x1, y1 in boxes:
        inside = (xx >= x0) & (xx <= x1) & (yy >= y0) & (yy <= y1)
        stripes = np.sin((xx + yy) * (0.2 + 0.1 * k)) * 150 * (k % 3)
        image[inside] = image[inside] * 0.5 + 1200.0 + 60.0 * k + stripes[inside]
    image += rng.normal(0, 80, image.shape)
    return np.clip(image, 0, 4095).astype(np.uint16)


def readings(rng: np.random.Generator, image_id: str, boxes: list[Any]) -> list[dict[str, Any]]:
    """Three radiologists' rows for one image; one who boxes nothing says "No finding"."""
    rows = []
    for r in rng.choice(len(RADIOLOGISTS), 3, replace=False):
        seen = [box for box in boxes if rng.random() >= 0.15]  # each finding missed at times
        if not seen:
            rows.append({"image_id": image_id, "class_id": NO_FINDING, "rad_id": RADIOLOGISTS[r]})
        for k, x0, y0, x1, y1 in seen:
            d = rng.integers(-2, 3, 4)
            rows.append(
                {
                    "image_id": image_id,
                    "class_id": k,
                    "rad_id": RADIOLOGISTS[r],
                    "x_min": float(max(0, round(x0) + d[0])),
                    "y_min": float(max(0, round(y0) + d[1])),
                    "x_max": float(round(x1) + d[2] + 3),
                    "y_max": float(round(y1) + d[3] + 3),
                }
            )
    return rows


def consensus(test: pd.DataFrame) -> pd.DataFrame:
    """Upstream's answers: each image and class's first non-blank values, blanks as 0, class
    14's box as ``0 0 1 1``."""
    answers = test.groupby(by=["image_id", "class_id"]).first().reset_index()
    answers = answers.fillna(0)
    answers.loc[answers["class_id"] == NO_FINDING, ["x_max", "y_max"]] = 1.0
    return answers


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    ids = hex_ids(rng, n, 32)
    abnormal = rng.random(n) < 0.3
    abnormal[:2] = [True, False]
    _, test_rows = split(rng, n, size.n_test)
    is_test = np.zeros(n, bool)
    is_test[test_rows] = True
    rows: list[dict[str, Any]] = []
    (public / "train").mkdir()
    (public / "test").mkdir()
    for i in range(n):
        boxes = findings(rng, size.side) if abnormal[i] else []
        pixels = radiograph(rng, size.side, boxes)
        elements = {
            (0x0008, 0x0060): ("CS", "DX"),
            (0x0010, 0x1010): ("AS", f"{int(rng.integers(20, 80)):03d}Y"),
            (0x0020, 0x000D): ("UI", uid(rng)),
        }
        folder = public / ("test" if is_test[i] else "train")
        write_dicom(folder / f"{ids[i]}.dicom", pixels, DIGITAL_XRAY, uid(rng), elements)
        rows += readings(rng, ids[i], boxes)
    frame = pd.DataFrame(rows, columns=["image_id", "class_id", "rad_id", *CORNERS])
    frame.insert(1, "class_name", [CLASSES[k] for k in frame["class_id"]])
    frame = frame.iloc[rng.permutation(len(frame))].reset_index(drop=True)  # Kaggle's order
    in_test = frame["image_id"].isin(set(ids[test_rows]))
    frame[~in_test].to_csv(public / "train.csv", index=False)
    answers = consensus(frame[in_test])
    answers.to_csv(private / "answers.csv", index=False)
    gold = answers.assign(
        PredictionString=[
            f"{k} 1.0 {x0} {y0} {x1} {y1}"
            for k, x0, y0, x1, y1 in answers[["class_id", *CORNERS]].itertuples(index=False)
        ]
    )
    gold.groupby("image_id")["PredictionString"].agg(" ".join).reset_index().to_csv(
        private / "gold_submission.csv", index=False
    )
    sample = pd.DataFrame({"image_id": ids[test_rows], "PredictionString": "14 1 0 0 1 1"})
    sample.to_csv(public / "sample_submission.csv", index=False)
