"""siim-isic-melanoma-classification: an ImageNet ConvNeXt-Tiny fine-tuned at 384x384 on the
dermoscopy JPEGs (binary cross-entropy, the rare melanomas up-weighted), flips of both axes as
augmentation and at test time.

    python -m baselines run --task mlebench/siim-isic-melanoma-classification
    python -m baselines.mlebench.siim_isic_melanoma_classification --public-dir DATA/siim-isic-melanoma-classification/prepared/public --out submission.csv

Why: the lesion's shape, border and colours carry the signal, which an ImageNet CNN picks up
quickly; skin has no orientation, so every flip is a free view; with ~2% positives the loss
weights them up so that the ranking (AUC) learns from them. Reads public/train.csv,
public/test.csv and the JPEGs in jpeg/train/ and jpeg/test/ (the DICOMs are the same
images); writes ``image_name,target`` with the probability of melanoma. Validation: a
hold-out of 10% of patients (no patient on both sides, melanomas spread evenly). Metric: ROC-AUC (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedGroupKFold

from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.torchkit import autocast, fit, pick_device, setup, sigmoid
from baselines.vision import Batches, describe, image_classifier, load_images, predict_logits

METRIC = "auc"
SEED = 0  # hold-out split, head weights, batches
HUB_ID = "facebook/convnext-tiny-224"  # ImageNet-1k ConvNeXt-Tiny (28.6M parameters)
IMAGE_SIZE = 384  # borders and colour patches need detail
EPOCHS = 4  # passes over the training images (the time budget may stop sooner)
BATCH_SIZE = 48  # images per step
LR = 2e-4  # AdamW peak learning rate (warm-up, then cosine decay)
MAX_POS_WEIGHT = 10.0  # melanomas weigh negatives/positives in the loss, at most this much
HOLDOUT = 0.1  # share of patients held out for the metric
TTA_FLIPS = ("", "h", "v")  # views averaged at test time
SMOKE_ROWS = 300  # --smoke: train on this many images ...
SMOKE_SIZE = 32  # ... at this size ...
SMOKE_STEPS = 25  # ... for this many steps ...
SMOKE_BATCH = 16  # ... of this many images
SMOKE_LR = 1e-3  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 40 * 60.0  # the whole script, data to file
THREADS = CORES  # image decoding and CPU training
RESERVE_S = 20.0  # kept back for writing (prediction time is measured and kept back too)


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
    train = pd.read_csv(public_dir / "train.csv")
    test = pd.read_csv(public_dir / "test.csv")
    if smoke:  # keep every melanoma: they are rare
        positive = train[train["target"] == 1]
        rest = train[train["target"] == 0]
        keep = rest.sample(n=min(len(rest), max(0, SMOKE_ROWS - len(positive))), random_state=SEED)
        train = pd.concat([positive, keep])
    budget.log(
        f"read train.csv: {len(train):,} images ({train['target'].sum():,} melanomas); "
        f"test.csv: {len(test):,}; device {where}"
    )

    size = SMOKE_SIZE if smoke else IMAGE_SIZE
    folder = public_dir / "jpeg"
    images = load_images(
        [folder / "train" / f"{n}.jpg" for n in train["image_name"]], size, threads, budget.log
    )
    test_images = load_images(
        [folder / "test" / f"{n}.jpg" for n in test["image_name"]], size, threads, budget.log
    )
    y = train["target"].to_numpy()
    folds = StratifiedGroupKFold(n_splits=round(1 / HOLDOUT), shuffle=True, random_state=SEED)
    fit_rows, val_rows = next(folds.split(y, y, groups=train["patient_id"]))

    model = image_classifier(HUB_ID, 1, pretrained).to(where)
    budget.log(describe(model, HUB_ID, pretrained))
    batches = Batches(images, where, flips="hv", seed=SEED)
    targets = torch.tensor(y, dtype=torch.float32, device=where)
    share = max(y[fit_rows].mean(), 1e-3)
    pos_weight = torch.tensor(min(MAX_POS_WEIGHT, (1 - share) / share), device=where)

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        picked = fit_rows[rows]
        with autocast(where):
            logits = model(pixel_values=batches(picked, train=True)).logits.squeeze(1)
        return F.binary_cross_entropy_with_logits(
            logits.float(), targets[picked], pos_weight=pos_weight
        )

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
        predict_rows=(len(val_rows) + len(test)) * len(TTA_FLIPS),
        reserve_s=RESERVE_S,
        seed=SEED,
    )

    val_logits = predict_logits(
        model, Batches(images[val_rows], where), len(val_rows), batch, TTA_FLIPS
    )[:, 0]
    both = 0 < y[val_rows].sum() < len(val_rows)
    auc = float(roc_auc_score(y[val_rows], val_logits)) if both else float("nan")
    metric_line(METRIC, auc, f"hold-out of {len(val_rows):,} images by patient")
    test_logits = predict_logits(model, Batches(test_images, where), len(test), batch, TTA_FLIPS)[
        :, 0
    ]
    submission = pd.DataFrame({"image_name": test["image_name"], "target": sigmoid(test_logits)})
    write_submission(submission, out_path, budget)
    return auc


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
