"""rsna-2022-cervical-spine-fracture-detection: neck CT studies (DICOM slices) with the
fractured vertebrae among C1 to C7 (Kaggle's shares) and ``patient_overall`` (any of them).

Each slice shows the vertebra of its level (C1 in the top slices, C7 at the bottom) as a
bright disc; a fractured vertebra has a dark crack across its disc: the signal. Some
training studies also have fracture boxes per slice, and some a segmentation volume (the
vertebra number of each voxel), with an overlap, in upstream's shares.

Public: ``train.csv`` (``StudyInstanceUID,patient_overall,C1..C7``),
``train_bounding_boxes.csv`` (``StudyInstanceUID,x,y,width,height,slice_number``),
``test.csv`` (``StudyInstanceUID,prediction_type,row_id``), ``sample_submission.csv``
(``row_id,fractured`` = 0.5), ``train_images/<uid>/<n>.dcm``, ``test_images/<uid>/<n>.dcm``
and ``segmentations/<uid>.nii``. Private: ``answers.csv``
(``StudyInstanceUID,prediction_type,fractured,row_id``): as upstream, Kaggle's wide table
melted, one row per study and type, ``row_id = <uid>_<type>``, types in turn
(``patient_overall`` for every study, then ``C1``...). Upstream keeps a tenth of the studies
for training and tests on the rest. Studies hold 12 slices of 64 by 64 pixels (6 of 32 in
the small fixture; Kaggle's hold about 300 of 512 by 512), 16-bit CT with a -1024 offset.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size
from .dicom import uid, write_dicom
from .nifti import write_nifti

CT_IMAGE_STORAGE = "1.2.840.10008.5.1.4.1.1.2"
VERTEBRAE = [f"C{k}" for k in range(1, 8)]
FRACTURE_SHARES = [0.07, 0.14, 0.04, 0.05, 0.08, 0.14, 0.19]
BOX_SHARE, SEGMENTATION_SHARE, BOTH_SHARE = 24 / 202, 9 / 202, 4 / 202


def slices(size: Size) -> int:
    return 12 if size.side >= 64 else 6


def levels(depth: int) -> np.ndarray:
    """The vertebra (1-7) of each slice, top first."""
    return 1 + (np.arange(depth) * 7) // depth


def volume(rng: np.random.Generator, side: int, depth: int, broken: np.ndarray) -> np.ndarray:
    """(depth, side, side) Hounsfield units + 1024: soft tissue, a bone disc, cracks."""
    yy, xx = np.mgrid[0:side, 0:side] / side
    out = np.empty((depth, side, side))
    cx, cy = rng.uniform(0.45, 0.55, 2)
    for k, level in enumerate(levels(depth)):
        disc = (xx - cx) ** 2 + (yy - cy) ** 2 < 0.06
        image = 1064 + 300 * disc + rng.normal(0, 25, (side, side))
        if broken[level - 1]:
            angle = rng.uniform(0, np.pi)
            crack = np.abs((xx - cx) * np.sin(angle) - (yy - cy) * np.cos(angle)) < 0.04
            image[disc & crack] = 1000
        out[k] = image
    return np.clip(out, 0, 4095)


def write_study(rng: np.random.Generator, folder: Path, study: str, pixels: np.ndarray) -> None:
    folder.mkdir(parents=True)
    series = uid(rng)
    for k, image in enumerate(pixels, start=1):
        elements = {
            (0x0008, 0x0060): ("CS", "CT"),
            (0x0010, 0x0020): ("LO", study.rsplit(".", 1)[-1]),
            (0x0018, 0x0050): ("DS", "1"),
            (0x0020, 0x000D): ("UI", study),
            (0x0020, 0x000E): ("UI", series),
            (0x0020, 0x0013): ("IS", str(k)),
            (0x0020, 0x0032): ("DS", f"-60\\-60\\{-k}"),
            (0x0028, 0x0030): ("DS", "0.25\\0.25"),
            (0x0028, 0x1052): ("DS", "-1024"),
            (0x0028, 0x1053): ("DS", "1"),
        }
        write_dicom(
            folder / f"{k}.dcm", image.astype(np.uint16), CT_IMAGE_STORAGE, uid(rng), elements
        )


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    numbers = np.sort(rng.choice(np.arange(1, 33_000), n, replace=False))
    studies = np.array([f"1.2.826.0.1.3680043.{k}" for k in numbers])
    broken = (rng.random((n, 7)) < FRACTURE_SHARES).astype(np.int64)
    frame = pd.DataFrame(broken, columns=VERTEBRAE)
    frame.insert(0, "patient_overall", broken.max(axis=1))
    frame.insert(0, "StudyInstanceUID", studies)
    is_train = np.zeros(n, bool)
    is_train[rng.choice(n, size.n_train, replace=False)] = True
    train_ids = np.flatnonzero(is_train)
    n_both = max(1, round(size.n_train * BOTH_SHARE))
    n_boxes = max(n_both, round(size.n_train * BOX_SHARE))
    n_segmented = max(n_both, round(size.n_train * SEGMENTATION_SHARE))
    picked = rng.permutation(train_ids)  # boxes: the first n_boxes; segmentations overlap them
    boxed = set(picked[:n_boxes].tolist())
    only_segmented = picked[n_boxes : n_boxes + n_segmented - n_both]
    segmented = set(picked[:n_both].tolist()) | set(only_segmented.tolist())

    depth = slices(size)
    (public / "segmentations").mkdir()
    box_rows = []
    for row in range(n):
        pixels = volume(rng, size.side, depth, broken[row])
        folder = "train_images" if is_train[row] else "test_images"
        write_study(rng, public / folder / studies[row], studies[row], pixels)
        if row in segmented:  # (x, y, slice) voxels: the vertebra number where there is bone
            labels = ((pixels > 1200) * levels(depth)[:, None, None]).astype(np.uint8)
            write_nifti(public / "segmentations" / f"{studies[row]}.nii", labels.transpose(2, 1, 0))
        if row in boxed:
            for k, level in enumerate(levels(depth), start=1):
                if broken[row, level - 1]:
                    x, y = rng.uniform(0.25, 0.35, 2) * size.side
                    w, h = rng.uniform(0.3, 0.4, 2) * size.side
                    box_rows.append((studies[row], x, y, w, h, k))
    frame[is_train].to_csv(public / "train.csv", index=False)
    pd.DataFrame(
        box_rows, columns=["StudyInstanceUID", "x", "y", "width", "height", "slice_number"]
    ).to_csv(public / "train_bounding_boxes.csv", index=False)
    answers = frame[~is_train].melt(
        id_vars="StudyInstanceUID", var_name="prediction_type", value_name="fractured"
    )
    answers["row_id"] = answers["StudyInstanceUID"] + "_" + answers["prediction_type"]
    answers.to_csv(private / "answers.csv", index=False)
    answers[["row_id"]].assign(fractured=0.5).to_csv(public / "sample_submission.csv", index=False)
    answers.drop(columns=["fractured"]).to_csv(public / "test.csv", index=False)
