"""rsna-miccai-brain-tumor-radiogenomic-classification: an ImageNet ResNet-18 fine-tuned on axial
slices whose three colours are the FLAIR, T1wCE and T2w series at the same depth, every slice
labelled with its patient's MGMT status (binary cross-entropy, flips as augmentation and at
test time); a patient's score is the mean of its slices' logits.

    python -m baselines run --task mlebench/rsna-miccai-brain-tumor-radiogenomic-classification
    python -m baselines.mlebench.rsna_miccai_brain_tumor_radiogenomic_classification --public-dir DATA/rsna-miccai-brain-tumor-radiogenomic-classification/prepared/public --out submission.csv

Why: 585 patients are too few for a 3-D network from scratch, and the winners' margin over
chance was small (AUC about 0.6): a pretrained 2-D network on slices sees each patient many
times, and the three sequences that show the tumour's extent and enhancement (FLAIR, T1wCE,
T2w; T1w adds little) fit the three colour channels. Each series is read as a fixed number of
evenly spaced slices (``baselines.dicom``), scaled to its own 1st-99th percentile (MRI has no
absolute units). Reads public/train_labels.csv, public/sample_submission.csv (the test
patients), train/<id>/<series>/*.dcm and test/<id>/<series>/*.dcm; writes
``BraTS21ID,MGMT_value``. Validation: a 15% hold-out of patients, stratified by label.
Metric: ROC-AUC (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from sklearn.metrics import roc_auc_score

from baselines.dicom import read_volumes
from baselines.kit import (
    CORES,
    Budget,
    metric_line,
    standalone,
    stratified_holdout,
    write_submission,
)
from baselines.torchkit import autocast, fit, pick_device, setup, sigmoid
from baselines.vision import Batches, describe, image_classifier, predict_logits

METRIC = "auc"
SEED = 0  # hold-out split, head weights, batches
HUB_ID = "microsoft/resnet-18"  # ImageNet-1k ResNet-18 (11.7M parameters)
SERIES = ("FLAIR", "T1wCE", "T2w")  # the three colour channels
DEPTH = 24  # slices read from each series, evenly spaced ...
KEEP = (0.2, 0.8)  # ... of which those in this central share of the head are used
IMAGE_SIZE = 256  # slices are 256 or 512 px
EPOCHS = 6  # passes over the training slices (the time budget may stop sooner)
BATCH_SIZE = 32  # slices per step
LR = 2e-4  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.15  # share of the patients held out for the metric
TTA_FLIPS = ("", "h")  # views averaged at test time
SMOKE_DEPTH = 4  # --smoke: slices a series ...
SMOKE_SIZE = 32  # ... at this size ...
SMOKE_STEPS = 30  # ... for this many steps ...
SMOKE_BATCH = 16  # ... of this many slices
SMOKE_LR = 1e-3  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 60 * 60.0  # the whole script, data to file
THREADS = CORES  # DICOM decoding and CPU training
RESERVE_S = 20.0  # kept back for writing (prediction time is measured and kept back too)


def slices(folder: Path, depth: int, size: int, threads: int) -> np.ndarray:
    """One study's central slices as (k, size, size, 3) uint8, a series per channel."""
    volumes = read_volumes([folder / s for s in SERIES], depth, size, threads, lambda _: None)
    low, high = np.percentile(volumes, 1, axis=(1, 2, 3)), np.percentile(volumes, 99, (1, 2, 3))
    scaled = (volumes - low[:, None, None, None]) / np.maximum(high - low, 1)[:, None, None, None]
    first, last = round(KEEP[0] * depth), max(round(KEEP[1] * depth), round(KEEP[0] * depth) + 1)
    kept = scaled[:, first:last] if depth > 4 else scaled
    return (np.clip(kept, 0, 1) * 255).astype(np.uint8).transpose(1, 2, 3, 0)


def read_studies(
    root: Path, ids: pd.Series, depth: int, size: int, threads: int, budget: Budget
) -> tuple[np.ndarray, np.ndarray]:
    """Every study's slices stacked, and the study (row number) of each slice; a progress
    line every tenth of a large set."""
    stacks = []
    step = max(1, len(ids) // 10) if len(ids) >= 200 else len(ids)
    for i, patient in enumerate(ids):
        stacks.append(slices(root / patient, depth, size, threads))
        if (i + 1) % step == 0 or i + 1 == len(ids):
            budget.log(f"decoded {i + 1:,}/{len(ids):,} studies under {root.name}/")
    owner = np.concatenate([np.full(len(s), i) for i, s in enumerate(stacks)])
    return np.concatenate(stacks), owner


def per_study(logits: np.ndarray, owner: np.ndarray, n: int) -> np.ndarray:
    """Each study's mean slice logit."""
    return np.bincount(owner, logits, n) / np.maximum(np.bincount(owner, minlength=n), 1)


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
    train = pd.read_csv(public_dir / "train_labels.csv", dtype={"BraTS21ID": str})
    test = pd.read_csv(public_dir / "sample_submission.csv", dtype={"BraTS21ID": str})
    budget.log(
        f"read train_labels.csv: {len(train):,} patients ({train['MGMT_value'].mean():.0%} "
        f"methylated); {len(test):,} test patients; device {where}"
    )

    depth, size = (SMOKE_DEPTH, SMOKE_SIZE) if smoke else (DEPTH, IMAGE_SIZE)
    images, owner = read_studies(
        public_dir / "train", train["BraTS21ID"], depth, size, threads, budget
    )
    test_images, test_owner = read_studies(
        public_dir / "test", test["BraTS21ID"], depth, size, threads, budget
    )
    y = train["MGMT_value"].to_numpy()
    fit_patients, val_patients = stratified_holdout(y, HOLDOUT, SEED)
    fit_rows = np.flatnonzero(np.isin(owner, fit_patients))
    val_rows = np.flatnonzero(np.isin(owner, val_patients))
    budget.log(f"{len(fit_rows):,} slices to fit, {len(val_rows):,} held out")

    model = image_classifier(HUB_ID, 1, pretrained).to(where)
    budget.log(describe(model, HUB_ID, pretrained))
    batches = Batches(images, where, flips="h", seed=SEED)
    targets = torch.tensor(y[owner], dtype=torch.float32, device=where)

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        picked = fit_rows[rows]
        with autocast(where):
            logits = model(pixel_values=batches(picked, train=True)).logits.squeeze(1)
        return F.binary_cross_entropy_with_logits(logits.float(), targets[picked])

    batch = SMOKE_BATCH if smoke else BATCH_SIZE
    fit(
        model,
        len(fit_rows),
        loss_of,
        epochs=EPOCHS,
        batch_size=batch,
        lr=SMOKE_LR if smoke else LR,
        budget=budget,
        max_steps=SMOKE_STEPS if smoke else None,
        predict_rows=(len(val_rows) + len(test_images)) * len(TTA_FLIPS),
        reserve_s=RESERVE_S,
        seed=SEED,
    )

    val_logits = predict_logits(
        model, Batches(images[val_rows], where), len(val_rows), batch, TTA_FLIPS
    )
    scores = per_study(val_logits[:, 0], owner[val_rows], len(train))
    auc = float(roc_auc_score(y[val_patients], scores[val_patients]))
    metric_line(METRIC, auc, f"{HOLDOUT:.0%} hold-out of {len(train):,} patients")
    test_logits = predict_logits(
        model, Batches(test_images, where), len(test_images), batch, TTA_FLIPS
    )
    probability = sigmoid(per_study(test_logits[:, 0], test_owner, len(test)))
    submission = pd.DataFrame({"BraTS21ID": test["BraTS21ID"], "MGMT_value": probability})
    write_submission(submission, out_path, budget)
    return auc


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
