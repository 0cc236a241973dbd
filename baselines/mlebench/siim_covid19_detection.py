"""siim-covid19-detection: a ConvNeXt-Tiny classifying each radiograph's study appearance
(negative, typical, indeterminate, atypical; a study takes its images' mean), and DETR on a
ResNet-50 finding the opacity boxes; every study row lists all four appearances with their
probabilities, every image row its boxes and "none" with the probability of a negative study.

    python -m baselines run --task mlebench/siim-covid19-detection
    python -m baselines.mlebench.siim_covid19_detection --public-dir DATA/siim-covid19-detection/prepared/public --out submission.csv

Why: the metric is the mean average precision of six classes, four of them study-level labels
with a dummy box: listing every label with its probability ranks them for each class's
precision at no cost, the trick every strong solution used; "none" on an image is the
classifier's negative probability. Opacities are few and large, a fit for DETR's one-to-one
matching of queries to boxes (``detr.py``: COCO weights, the "no object" class learnt for the
rest). Reads train_study_level.csv, train_image_level.csv, the DICOM files under train/ and
test/ (``<study>/<series>/<image>.dcm``) and sample_submission.csv (the test ids); boxes are in
the files' own pixels. Writes ``id,PredictionString`` (``<class> <confidence> <x_min> <y_min>
<x_max> <y_max>`` repeated). Validation: 10% of the studies held out. Metric: mean over the six
classes of the average precision at IoU 0.5 (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from sklearn.metrics import average_precision_score

from baselines import detr
from baselines.boxes import average_precision
from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.torchkit import autocast, fit, pick_device, setup, softmax
from baselines.vision import IMAGENET_MEAN, IMAGENET_STD, describe, image_classifier
from baselines.xray import read_xrays

METRIC = "map"
SEED = 0  # held-out studies, weights of the new heads, batches
HUB_ID = "facebook/convnext-tiny-224"  # the study classifier: ImageNet-1k ConvNeXt-Tiny
APPEARANCES = ("negative", "typical", "indeterminate", "atypical")  # the study columns, in order
SIZE = 512  # radiographs are squashed to SIZE x SIZE for both networks
CLASSIFIER_SHARE = 0.4  # of the training time, for the classifier (the rest: DETR)
CLASSIFIER_EPOCHS = 15  # passes over the training images (the time budget may stop sooner)
DETR_EPOCHS = 40  # passes for DETR, which learns its boxes slowly
BATCH_SIZE = 16  # images per step, both networks
LR = 1e-4  # AdamW peak learning rate of both (warm-up, then cosine decay)
BOXES_PER_IMAGE = 10  # DETR's most confident opacity boxes written for each image
HOLDOUT = 0.1  # share of the studies held out
SMOKE_SIZE = 32  # --smoke: a smaller side ...
SMOKE_STEPS = 25  # ... for this many classifier steps ...
SMOKE_DETR_STEPS = 8  # ... and DETR steps (enough to run every path) ...
SMOKE_BATCH = 8  # ... of this many images
TIME_BUDGET_S = 30 * 60.0  # the whole script, data to file
THREADS = CORES  # DICOM decoding and CPU training
RESERVE_S = 20.0  # kept back for writing (prediction time is measured and kept back too)


def dicom_files(folder: Path) -> dict[str, Path]:
    """Image id -> its file, for every ``<study>/<series>/<image>.dcm`` under ``folder``."""
    return {p.stem: p for p in folder.glob("*/*/*.dcm")}


def opacity_boxes(label: object) -> np.ndarray:
    """The ``opacity`` corner boxes of an image-level label (none: an empty array)."""
    tokens = str(label).split() if isinstance(label, str) else []
    boxes = [[float(v) for v in tokens[i + 2 : i + 6]] for i in range(0, len(tokens), 6)
             if tokens[i] == "opacity"]  # fmt: skip
    return np.array(boxes, np.float32).reshape(-1, 4)


def main(
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float = TIME_BUDGET_S,
    threads: int = THREADS,
    device: str | None = None,
    pretrained: str | None = None,
) -> float:
    budget = Budget(time_budget_s)
    where = pick_device(device)
    setup(SEED, threads, where)
    studies = pd.read_csv(public_dir / "train_study_level.csv")
    appearance = dict(
        zip(
            studies["id"].str.removesuffix("_study"),
            studies.iloc[:, 1:5].to_numpy().argmax(1),
            strict=True,
        )
    )
    train = pd.read_csv(public_dir / "train_image_level.csv")
    train["image"] = train["id"].str.removesuffix("_image")
    train = train[train["StudyInstanceUID"].isin(appearance)].reset_index(drop=True)
    sample = pd.read_csv(public_dir / "sample_submission.csv")
    test_files = dicom_files(public_dir / "test")
    test_images_ids = sorted(test_files)
    size = SMOKE_SIZE if smoke else SIZE
    files = dicom_files(public_dir / "train")
    images, sizes = read_xrays([files[i] for i in train["image"]], size, threads, budget.log)
    test_images, test_sizes = read_xrays(
        [test_files[i] for i in test_images_ids], size, threads, budget.log
    )
    labels = train["StudyInstanceUID"].map(appearance).to_numpy()
    boxes = [
        opacity_boxes(label) * (size / s[[0, 1, 0, 1]])
        for label, s in zip(train["label"], sizes, strict=True)
    ]
    budget.log(
        f"read {len(train):,} training and {len(test_images):,} test radiographs; device {where}"
    )

    rng = np.random.default_rng(SEED)
    study_ids = rng.permutation(sorted(set(train["StudyInstanceUID"])))
    held = set(study_ids[: max(1, round(HOLDOUT * len(study_ids)))])
    in_val = train["StudyInstanceUID"].isin(held).to_numpy()
    fit_rows, val_rows = np.flatnonzero(~in_val), np.flatnonzero(in_val)
    mean = torch.tensor(IMAGENET_MEAN, device=where).view(1, 3, 1, 1)
    std = torch.tensor(IMAGENET_STD, device=where).view(1, 3, 1, 1)

    def inputs(pixels: np.ndarray, flip: bool = False) -> torch.Tensor:
        x = torch.from_numpy(pixels).to(where).float().div_(255)[:, None].expand(-1, 3, -1, -1)
        return ((x.flip(3) if flip else x) - mean) / std

    batch = SMOKE_BATCH if smoke else BATCH_SIZE
    predict_rows = len(val_rows) + len(test_images)

    classifier = image_classifier(HUB_ID, len(APPEARANCES), pretrained).to(where)
    budget.log(describe(classifier, HUB_ID, pretrained))
    targets = torch.tensor(labels, device=where)

    def classifier_loss(rows: np.ndarray) -> torch.Tensor:
        picked = fit_rows[rows]
        with autocast(where):
            logits = classifier(pixel_values=inputs(images[picked], flip=rng.random() < 0.5)).logits
        return F.cross_entropy(logits.float(), targets[picked])

    share = Budget(budget.spent() + CLASSIFIER_SHARE * budget.left(), start=budget.start)
    fit(classifier, len(fit_rows), classifier_loss, epochs=CLASSIFIER_EPOCHS, batch_size=batch,
        lr=LR, budget=share, max_steps=SMOKE_STEPS if smoke else None, predict_rows=predict_rows, reserve_s=0.0, seed=SEED)  # fmt: skip

    boxer = detr.detector(1, pretrained).to(where)
    budget.log(describe(boxer, detr.HUB_ID, pretrained))

    def detr_loss(rows: np.ndarray) -> torch.Tensor:
        picked = fit_rows[rows]
        wanted = detr.targets([boxes[i] for i in picked], [np.zeros(len(boxes[i]), np.int64) for i in picked],
                              [(size, size)] * len(picked), where)  # fmt: skip
        with autocast(where):
            return boxer(pixel_values=inputs(images[picked]), labels=wanted).loss

    fit(boxer, len(fit_rows), detr_loss, epochs=DETR_EPOCHS, batch_size=batch, lr=LR,
        budget=budget, max_steps=SMOKE_DETR_STEPS if smoke else None, predict_rows=predict_rows, reserve_s=RESERVE_S, seed=SEED)  # fmt: skip

    @torch.no_grad()
    def predict(pixels: np.ndarray, scale: np.ndarray) -> tuple[np.ndarray, list[Any]]:
        """Appearance probabilities, and per image the opacity boxes (corners in the file's
        pixels) with their scores."""
        classifier.eval(), boxer.eval()
        probs, found = [], []
        for first in range(0, len(pixels), batch):
            x = inputs(pixels[first : first + batch])
            with autocast(where):
                logits = classifier(pixel_values=x).logits.float()
                out = boxer(pixel_values=x)
            probs.append(softmax(logits.cpu().numpy()))
            for k, (scores, _, corners) in enumerate(
                detr.detections(out.logits, out.pred_boxes, [(size, size)] * len(x))
            ):
                w, h = scale[first + k]
                kept = slice(0, BOXES_PER_IMAGE)
                found.append((corners[kept] * np.array([w, h, w, h]) / size, scores[kept]))
        return np.concatenate(probs), found

    val_probs, val_found = predict(images[val_rows], sizes[val_rows])
    val = train.iloc[val_rows].assign(label_id=labels[val_rows])
    study_probs = pd.DataFrame(val_probs).groupby(val["StudyInstanceUID"].to_numpy()).mean()
    study_truth = (
        val.groupby("StudyInstanceUID")["label_id"].first().loc[study_probs.index].to_numpy()
    )
    aps = [float(average_precision_score(study_truth == c, study_probs[c])) if (study_truth == c).any() else 0.0
           for c in range(len(APPEARANCES))]  # fmt: skip
    true_boxes = [boxes[i] * (sizes[i][[0, 1, 0, 1]] / size) for i in val_rows]
    aps.append(average_precision(val_found, true_boxes, 0.5))
    no_box = np.array([len(b) == 0 for b in true_boxes])
    aps.append(float(average_precision_score(no_box, val_probs[:, 0])) if no_box.any() else 0.0)
    score = float(np.mean(aps))
    budget.log(
        "AP "
        + ", ".join(
            f"{n} {a:.3f}" for n, a in zip([*APPEARANCES, "opacity", "none"], aps, strict=True)
        )
    )
    metric_line(METRIC, score, f"{len(held)} held-out studies")

    probs, found = predict(test_images, test_sizes)
    study_of = {p.stem: p.parent.parent.name for p in test_files.values()}
    per_study = pd.DataFrame(probs).groupby([study_of[i] for i in test_images_ids]).mean()
    strings: dict[str, str] = {}
    for study, row in per_study.iterrows():
        strings[f"{study}_study"] = " ".join(
            f"{n} {p:.5f} 0 0 1 1" for n, p in zip(APPEARANCES, row, strict=True)
        )
    for image, p, (corners, scores) in zip(test_images_ids, probs, found, strict=True):
        parts = [
            f"opacity {s:.5f} " + " ".join(f"{v:.1f}" for v in box)
            for s, box in zip(scores, corners, strict=True)
        ]
        strings[f"{image}_image"] = " ".join([*parts, f"none {p[0]:.5f} 0 0 1 1"])
    submission = sample.assign(PredictionString=[strings[i] for i in sample["id"]])
    write_submission(submission, out_path, budget)
    return score


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
