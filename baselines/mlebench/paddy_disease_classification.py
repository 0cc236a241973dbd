"""paddy-disease-classification: an ImageNet ConvNeXt-Tiny fine-tuned at 384x384 as a ten-way
classifier of the rice-leaf photographs (cross-entropy with label smoothing), flips of both axes
as augmentation and at test time.

    python -m baselines run --task mlebench/paddy-disease-classification
    python -m baselines.mlebench.paddy_disease_classification --public-dir DATA/paddy-disease-classification/prepared/public --out submission.csv

Why: 10k field photographs (480x640) of nine diseases and healthy leaves, told apart by
lesions and casts of colour, which a pretrained backbone learns in a few epochs; the
metadata (variety, age) adds little over the image and is left out. Leaves have no up or
left, so every flip is a free view. Reads public/train.csv, public/sample_submission.csv
(the test ids), the JPEGs in train_images/<label>/ and test_images/; writes
``image_id,label`` (the disease's name). Validation: a stratified 10% hold-out. Metric:
accuracy (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F

from baselines.kit import (
    CORES,
    Budget,
    metric_line,
    standalone,
    stratified_holdout,
    write_submission,
)
from baselines.torchkit import autocast, fit, pick_device, setup
from baselines.vision import Batches, describe, image_classifier, load_images, predict_logits

METRIC = "accuracy"
SEED = 0  # hold-out split, head weights, batches
HUB_ID = "facebook/convnext-tiny-224"  # ImageNet-1k ConvNeXt-Tiny (28.6M parameters)
IMAGE_SIZE = 384  # the photographs are 480x640; lesions are small
EPOCHS = 10  # passes over the training images (the time budget may stop sooner)
BATCH_SIZE = 32  # images per step
LR = 2e-4  # AdamW peak learning rate (warm-up, then cosine decay)
LABEL_SMOOTHING = 0.1  # keeps the network from becoming over-confident
HOLDOUT = 0.1  # share of train held out for the metric
TTA_FLIPS = ("", "h", "v")  # views averaged at test time
SMOKE_ROWS = 200  # --smoke: train on this many images ...
SMOKE_SIZE = 32  # ... at this size ...
SMOKE_STEPS = 20  # ... for this many steps ...
SMOKE_BATCH = 16  # ... of this many images
SMOKE_LR = 1e-3  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 45 * 60.0  # the whole script, data to file
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
    train = pd.read_csv(public_dir / "train.csv", dtype={"image_id": str})
    test = pd.read_csv(public_dir / "sample_submission.csv", dtype={"image_id": str})
    if smoke:
        train = train.sample(n=min(SMOKE_ROWS, len(train)), random_state=SEED)
    budget.log(
        f"read train.csv: {len(train):,} images of {train['label'].nunique()} classes; "
        f"{len(test):,} test images; device {where}"
    )

    size = SMOKE_SIZE if smoke else IMAGE_SIZE
    folder = public_dir / "train_images"
    images = load_images(
        [folder / label / i for i, label in zip(train["image_id"], train["label"], strict=True)],
        size,
        threads,
        budget.log,
    )
    test_images = load_images(
        [public_dir / "test_images" / i for i in test["image_id"]], size, threads, budget.log
    )
    diseases = sorted(train["label"].unique())
    y = train["label"].map({d: k for k, d in enumerate(diseases)}).to_numpy()
    fit_rows, val_rows = stratified_holdout(y, HOLDOUT, SEED)

    model = image_classifier(HUB_ID, len(diseases), pretrained).to(where)
    budget.log(describe(model, HUB_ID, pretrained))
    batches = Batches(images, where, flips="hv", seed=SEED)
    targets = torch.tensor(y, device=where)

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        picked = fit_rows[rows]
        with autocast(where):
            logits = model(pixel_values=batches(picked, train=True)).logits
        return F.cross_entropy(logits.float(), targets[picked], label_smoothing=LABEL_SMOOTHING)

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
    )
    accuracy = float((val_logits.argmax(axis=1) == y[val_rows]).mean())
    metric_line(METRIC, accuracy, f"{HOLDOUT:.0%} hold-out of {len(train):,} images")
    test_logits = predict_logits(model, Batches(test_images, where), len(test), batch, TTA_FLIPS)
    labels = np.asarray(diseases)[test_logits.argmax(axis=1)]
    submission = pd.DataFrame({"image_id": test["image_id"], "label": labels})
    write_submission(submission, out_path, budget)
    return accuracy


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
