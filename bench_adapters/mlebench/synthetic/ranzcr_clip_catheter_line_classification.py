"""ranzcr-clip-catheter-line-classification: grey chest radiographs with tubes drawn as bright
lines. Where a tube's tip lies sets its label: the endotracheal tube (ETT, from the top
centre) is normal high in the trachea, borderline lower, abnormal deep; the nasogastric tube
(NGT, down the left) is normal when its tip is below the diaphragm, borderline above it,
abnormal in the chest, incompletely imaged when it leaves the image; the central venous
catheter (CVC, from a shoulder) is normal near the centre, borderline short of it, abnormal
turned upwards. A Swan-Ganz catheter continues past a CVC. Rare classes are commoner than on
Kaggle so that small fixtures hold each of them.

Public: ``train.csv`` (``StudyInstanceUID``, the 11 labels as 0/1, ``PatientID``),
``train_annotations.csv`` (``StudyInstanceUID,label,data``: a tube's points in pixels, for
some training images), ``train/<uid>.jpg``, ``test/<uid>.jpg``, ``sample_submission.csv``
(``StudyInstanceUID`` + the 9 graded classes, each 0). Private: ``test.csv`` (the train
columns). Uids look like ``1.2.826.0.1.3680043.8.498.<38 digits>``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from ..graders.ranzcr_clip_catheter_line_classification import CLASSES as GRADED
from .common import Size, hex_ids, split
from .imaging import Canvas, save

LABELS = [
    *GRADED[:7],
    "CVC - Abnormal",
    "CVC - Borderline",
    "CVC - Normal",
    "Swan Ganz Catheter Present",
]
ETT = {"ETT - Normal": 0.30, "ETT - Borderline": 0.42, "ETT - Abnormal": 0.55}
NGT = {
    "NGT - Normal": 0.88,
    "NGT - Borderline": 0.62,
    "NGT - Abnormal": 0.40,
    "NGT - Incompletely Imaged": 1.1,
}
CVC = {
    "CVC - Normal": (0.52, 0.40),
    "CVC - Borderline": (0.38, 0.34),
    "CVC - Abnormal": (0.30, 0.12),
}
PRESENT = {"ETT": 0.5, "NGT": 0.45, "CVC": 0.85}
"""Share of images with each tube."""
SHARES = {"ETT": [0.6, 0.25, 0.15], "NGT": [0.55, 0.15, 0.15, 0.15], "CVC": [0.6, 0.25, 0.15]}
Points = list[tuple[float, float]]


def tube(rng: np.random.Generator, label: str) -> Points:
    """The points of the tube whose placement is ``label``."""
    if label in ETT:
        return [(0.5, 0.0), (0.5 + rng.normal(0, 0.01), ETT[label] + rng.normal(0, 0.02))]
    if label in NGT:
        return [(0.47, 0.0), (0.45, 0.3), (0.42, 0.55), (0.40, NGT[label] + rng.normal(0, 0.02))]
    (tx, ty), side = CVC[label], rng.choice([-1, 1])
    return [(0.5 + side * 0.42, 0.15), (0.5 + side * 0.25, 0.22), (0.5 + side * (0.5 - tx), ty)]


def tubes(rng: np.random.Generator) -> dict[str, Points]:
    """The tubes of one image: label -> points (fractions of the side)."""
    out: dict[str, Points] = {}
    for kind, table in (("ETT", ETT), ("NGT", NGT), ("CVC", CVC)):
        if rng.random() < PRESENT[kind]:
            label = str(rng.choice(list(table), p=SHARES[kind]))
            out[label] = tube(rng, label)
    cvc = [points for label, points in out.items() if label.startswith("CVC")]
    if cvc and rng.random() < 0.08:
        out["Swan Ganz Catheter Present"] = [cvc[0][-1], (0.58, 0.5), (0.62, 0.58)]
    return out


def force(rng: np.random.Generator, layout: dict[str, Points], label: str) -> dict[str, Points]:
    """``layout`` with its tube of ``label``'s kind replaced by one placed as ``label``."""
    kept = {k: v for k, v in layout.items() if not k.startswith(label[:3])}
    return {**kept, label: tube(rng, label)}


def draw(
    rng: np.random.Generator, side: int, lines: dict[str, list[tuple[float, float]]]
) -> Image.Image:
    canvas = Canvas(side, side, (20, 20, 20), mode="L")
    grey = int(rng.integers(60, 100))
    canvas.ellipse(0.3, 0.5, 0.17, 0.32, (grey,) * 3)  # lungs
    canvas.ellipse(0.7, 0.5, 0.17, 0.32, (grey,) * 3)
    canvas.rectangle(0.47, 0.0, 0.53, 0.35, (grey + 40,) * 3)  # trachea
    canvas.ellipse(0.5, 0.95, 0.45, 0.2, (grey + 30,) * 3)  # below the diaphragm
    for points in lines.values():
        canvas.line(points, (235, 235, 235), width=0.025)
    return canvas.finish(rng, noise=6, blur=0.4)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    layouts = [tubes(rng) for _ in range(n)]
    uids = np.array(
        ["1.2.826.0.1.3680043.8.498." + "".join(map(str, d)) for d in rng.integers(0, 10, (n, 38))]
    )
    patients = hex_ids(rng, max(1, n // 8), 9)[rng.integers(0, max(1, n // 8), n)]
    train_rows, test_rows = split(rng, n, size.n_test)
    for rows in (train_rows, test_rows):  # each graded class present in each file
        for k, label in enumerate(GRADED):
            if not any(label in layouts[r] for r in rows):
                layouts[rows[k % len(rows)]] = force(rng, layouts[rows[k % len(rows)]], label)
    labels = np.array([[int(label in layout) for label in LABELS] for layout in layouts])
    frame = pd.DataFrame(labels, columns=LABELS)
    frame.insert(0, "StudyInstanceUID", uids)
    frame["PatientID"] = patients
    annotations = []
    for folder, rows in (("train", train_rows), ("test", test_rows)):
        for r in rows:
            save(draw(rng, size.side, layouts[r]), public / folder / f"{uids[r]}.jpg")
            if folder == "train" and rng.random() < 0.6:
                for label, points in layouts[r].items():
                    data = [
                        [round(x * size.side), round(min(y, 1.0) * size.side)] for x, y in points
                    ]
                    annotations.append(
                        {"StudyInstanceUID": uids[r], "label": label, "data": str(data)}
                    )
    train, test = frame.iloc[train_rows], frame.iloc[test_rows]
    sample = test[["StudyInstanceUID"]].assign(**{c: 0 for c in GRADED})
    train.to_csv(public / "train.csv", index=False)
    pd.DataFrame(annotations, columns=["StudyInstanceUID", "label", "data"]).to_csv(
        public / "train_annotations.csv", index=False
    )
    test.to_csv(private / "test.csv", index=False)
    sample.to_csv(public / "sample_submission.csv", index=False)
