"""siim-covid19-detection: chest radiographs (DICOM) grouped in studies; each study has one of
four appearances, each image zero or more ``opacity`` boxes.

The appearance follows Kaggle's shares (negative 27%, typical 47%, indeterminate 18%, atypical
8%) and decides what the study's images show, which is the signal: a negative study's images
have no opacity (``none 1 0 0 1 1``), a typical one two, low in both lungs, an indeterminate one
a single one low in one lung, an atypical one a single one high and central. Opacities are
bright hazy ellipses drawn inside their boxes; box coordinates are pixels of the stand-in
image (Kaggle's radiographs are about 2,500 x 3,000 pixels; these are capped at ``side``).

Public: ``train_study_level.csv`` (``id`` = ``<study>_study`` and the four one-hot appearance
columns), ``train_image_level.csv`` (``id`` = ``<image>_image``, ``boxes`` as Kaggle's
``[{'x': ..., 'y': ..., 'width': ..., 'height': ...}]`` text, blank for none, ``label`` as
``opacity 1 x_min y_min x_max y_max`` repeated or ``none 1 0 0 1 1``, ``StudyInstanceUID``),
both sorted by id, ``train/<study>/<series>/<image>.dcm`` and ``test/<study>/<series>/<image>.dcm``
(16-bit MONOCHROME2), ``sample_submission.csv``. Private: ``test.csv`` (``id,PredictionString``:
the test studies sorted, then their images sorted; a study's answer is ``<appearance> 1 0 0 1 1``).
The split is by study, 90/10, as upstream's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .common import Size, hex_ids, split
from .dicom import uid, write_dicom

APPEARANCES = [
    ("Negative for Pneumonia", "negative"),
    ("Typical Appearance", "typical"),
    ("Indeterminate Appearance", "indeterminate"),
    ("Atypical Appearance", "atypical"),
]
SHARES = [0.274, 0.473, 0.175, 0.078]
DIGITAL_XRAY = "1.2.840.10008.5.1.4.1.1.1.1"
NO_BOX = "none 1 0 0 1 1"


def opacity_boxes(rng: np.random.Generator, appearance: int, width: int, height: int) -> list[Any]:
    """(x, y, w, h) boxes in pixels: where the appearance puts its opacities."""
    if appearance == 0:
        return []
    if appearance == 1:
        centres = [(0.3, 0.62), (0.7, 0.62)]
    elif appearance == 2:
        centres = [(0.3 if rng.random() < 0.5 else 0.7, 0.62)]
    else:
        centres = [(0.5, 0.3)]
    boxes = []
    for cx, cy in centres:
        w, h = rng.uniform(0.18, 0.26) * width, rng.uniform(0.22, 0.32) * height
        x = (cx + rng.normal(0, 0.03)) * width - w / 2
        y = (cy + rng.normal(0, 0.03)) * height - h / 2
        boxes.append(tuple(round(float(v), 5) for v in (x, y, w, h)))
    return boxes


def radiograph(rng: np.random.Generator, side: int, boxes: list[Any]) -> np.ndarray:
    """A chest: dark lungs in a brighter body, opacities as bright ellipses in the boxes."""
    height, width = side, round(side * 0.85)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    image = np.full((height, width), 2600.0, np.float32)
    for cx in (0.3, 0.7):
        lung = ((xx / width - cx) / 0.17) ** 2 + ((yy / height - 0.5) / 0.33) ** 2 < 1
        image[lung] = 900.0
    for x, y, w, h in boxes:
        inside = ((xx - x - w / 2) / (w / 2)) ** 2 + ((yy - y - h / 2) / (h / 2)) ** 2 < 1
        image[inside] += 1300.0
    image += rng.normal(0, 120, image.shape)
    return np.clip(image, 0, 4095).astype(np.uint16)


def label_text(boxes: list[Any]) -> str:
    if not boxes:
        return NO_BOX
    return " ".join(
        f"opacity 1 {x} {y} {round(x + w, 5)} {round(y + h, 5)}" for x, y, w, h in boxes
    )


def boxes_text(boxes: list[Any]) -> str | None:
    if not boxes:
        return None
    return str([{"x": x, "y": y, "width": w, "height": h} for x, y, w, h in boxes])


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    studies = hex_ids(rng, n, 12)
    appearance = rng.choice(4, n, p=SHARES)
    appearance[:4] = np.arange(4)  # every appearance present, however small the fixture
    per_study = 1 + (rng.random(n) < 0.05) + (rng.random(n) < 0.01)  # about 1.05 images each
    n_images = int(per_study.sum())
    image_ids, series_ids = hex_ids(rng, n_images, 12), hex_ids(rng, n_images, 12)
    study_frame = pd.DataFrame(
        np.eye(4, dtype=np.int64)[appearance], columns=[a for a, _ in APPEARANCES]
    )
    study_frame.insert(0, "id", [f"{s}_study" for s in studies])
    train_rows, test_rows = split(rng, n, size.n_test)
    test_study = np.zeros(n, bool)
    test_study[test_rows] = True

    images = []
    k = 0
    for s in range(n):
        folder = public / ("test" if test_study[s] else "train") / studies[s]
        study_uid = uid(rng)
        for _ in range(per_study[s]):
            series = folder / series_ids[k]
            series.mkdir(parents=True, exist_ok=True)
            side = size.side
            boxes = opacity_boxes(rng, int(appearance[s]), round(side * 0.85), side)
            pixels = radiograph(rng, side, boxes)
            elements = {
                (0x0008, 0x0060): ("CS", "DX"),
                (0x0010, 0x0040): ("CS", "M" if rng.random() < 0.55 else "F"),
                (0x0020, 0x000D): ("UI", study_uid),
                (0x0020, 0x000E): ("UI", uid(rng)),
                (0x0028, 0x0030): ("DS", "0.139\\0.139"),
            }
            write_dicom(series / f"{image_ids[k]}.dcm", pixels, DIGITAL_XRAY, uid(rng), elements)
            images.append(
                {
                    "id": f"{image_ids[k]}_image",
                    "boxes": boxes_text(boxes),
                    "label": label_text(boxes),
                    "StudyInstanceUID": studies[s],
                    "test": bool(test_study[s]),
                }
            )
            k += 1
    image_frame = pd.DataFrame(images)
    train_study = study_frame.iloc[train_rows].sort_values("id")
    test_study_frame = study_frame.iloc[test_rows].sort_values("id")
    train_study.to_csv(public / "train_study_level.csv", index=False)
    columns = ["id", "boxes", "label", "StudyInstanceUID"]
    image_frame[~image_frame["test"]].sort_values("id")[columns].to_csv(
        public / "train_image_level.csv", index=False
    )
    test_images = image_frame[image_frame["test"]].sort_values("id")

    names = [short for _, short in APPEARANCES]
    study_answers = [
        f"{names[int(np.argmax(row))]} 1 0 0 1 1" for row in test_study_frame.iloc[:, 1:].to_numpy()
    ]
    answers = pd.DataFrame(
        {
            "id": [*test_study_frame["id"], *test_images["id"]],
            "PredictionString": [*study_answers, *test_images["label"]],
        }
    )
    answers.to_csv(private / "test.csv", index=False)
    sample = answers.assign(
        PredictionString=["negative 1 0 0 1 1"] * len(test_study_frame)
        + [NO_BOX] * len(test_images)
    )
    sample.to_csv(public / "sample_submission.csv", index=False)
