"""plant-pathology-2020-fgvc7: an ImageNet ConvNeXt-Tiny fine-tuned at 384x384 as a four-way
classifier (softmax: each leaf has exactly one label), flips as augmentation and at test time.

    python -m baselines run --task mlebench/plant-pathology-2020-fgvc7
    python -m baselines.mlebench.plant_pathology_2020_fgvc7 --public-dir DATA/plant-pathology-2020-fgvc7/prepared/public --out submission.csv

Why: 1.6k photographs are few, so a pretrained backbone is essential; rust and scab spots are
small, so the image is kept large; the four columns are exclusive, so one softmax serves them
better than four independent sigmoids. Reads public/train.csv, public/test.csv and the JPEGs
in images/; writes ``image_id`` and the four class probabilities. Validation: a stratified
10% hold-out. Metric: mean of the four columns' ROC-AUC (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.torchkit import autocast, fit, pick_device, setup, softmax
from baselines.vision import Batches, describe, image_classifier, load_images, predict_logits

METRIC = "mean_auc"
SEED = 0  # hold-out split, head weights, batches
HUB_ID = "facebook/convnext-tiny-224"  # ImageNet-1k ConvNeXt-Tiny (28.6M parameters)
CLASSES = ["healthy", "multiple_diseases", "rust", "scab"]
IMAGE_SIZE = 384  # spots are a few pixels at 224
EPOCHS = 15  # passes over the training images (the time budget may stop sooner)
BATCH_SIZE = 32  # images per step
LR = 2e-4  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.1  # share of train held out for the metric
TTA_FLIPS = ("", "h", "v")  # views averaged at test time
SMOKE_ROWS = 200  # --smoke: train on this many images ...
SMOKE_SIZE = 32  # ... at this size ...
SMOKE_STEPS = 25  # ... for this many steps ...
SMOKE_BATCH = 16  # ... of this many images
SMOKE_LR = 1e-3  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 30 * 60.0  # the whole script, data to file
THREADS = CORES  # image decoding and CPU training
RESERVE_S = 15.0  # kept back for writing (prediction time is measured and kept back too)


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
    if smoke:
        train = train.sample(n=min(SMOKE_ROWS, len(train)), random_state=SEED)
    budget.log(f"read train.csv: {len(train):,} images; test.csv: {len(test):,}; device {where}")

    size = SMOKE_SIZE if smoke else IMAGE_SIZE
    folder = public_dir / "images"
    images = load_images(
        [folder / f"{i}.jpg" for i in train["image_id"]], size, threads, budget.log
    )
    test_images = load_images(
        [folder / f"{i}.jpg" for i in test["image_id"]], size, threads, budget.log
    )
    y = train[CLASSES].to_numpy().argmax(axis=1)
    fit_rows, val_rows = train_test_split(
        np.arange(len(train)), test_size=HOLDOUT, stratify=y, random_state=SEED
    )

    model = image_classifier(HUB_ID, len(CLASSES), pretrained).to(where)
    budget.log(describe(model, HUB_ID, pretrained))
    batches = Batches(images, where, flips="hv", seed=SEED)
    targets = torch.tensor(y, device=where)

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        picked = fit_rows[rows]
        with autocast(where):
            logits = model(pixel_values=batches(picked, train=True)).logits
        return F.cross_entropy(logits.float(), targets[picked])

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

    val_prob = softmax(
        predict_logits(model, Batches(images[val_rows], where), len(val_rows), batch, TTA_FLIPS)
    )
    truth = np.eye(len(CLASSES))[y[val_rows]]
    scored = [k for k in range(len(CLASSES)) if 0 < truth[:, k].sum() < len(truth)]
    auc = float(np.mean([roc_auc_score(truth[:, k], val_prob[:, k]) for k in scored]))
    metric_line(
        METRIC, auc, f"{HOLDOUT:.0%} hold-out of {len(train):,} images, {len(scored)} classes"
    )
    test_prob = softmax(
        predict_logits(model, Batches(test_images, where), len(test), batch, TTA_FLIPS)
    )
    submission = pd.DataFrame(test_prob, columns=CLASSES)
    submission.insert(0, "image_id", test["image_id"])
    write_submission(submission, out_path, budget)
    return auc


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
