"""dog-breed-identification: an ImageNet ConvNeXt-Tiny fine-tuned on 120 breeds at 224x224
(cross-entropy with label smoothing), its probabilities calibrated by a temperature fitted on
the hold-out.

    python -m baselines run --task mlebench/dog-breed-identification
    python -m baselines.mlebench.dog_breed_identification --public-dir DATA/dog-breed-identification/prepared/public --out submission.csv

Why: these breeds are a subset of ImageNet's classes, so an ImageNet backbone already knows
them and fine-tuning converges in a few epochs; the metric is log loss, which punishes
over-confidence, hence label smoothing and a fitted temperature. Reads public/labels.csv
and the JPEGs in train/ and test/ (the test ids from sample_submission.csv); writes ``id`` and
one probability column per breed, in the sample submission's order. Validation: a 10%
hold-out. Metric: multi-class log loss (lower is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from sklearn.metrics import log_loss
from sklearn.model_selection import train_test_split

from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.torchkit import autocast, fit, fit_temperature, pick_device, setup, softmax
from baselines.vision import Batches, describe, image_classifier, load_images, predict_logits

METRIC = "log_loss"
SEED = 0  # hold-out split, head weights, batches
HUB_ID = "facebook/convnext-tiny-224"  # ImageNet-1k ConvNeXt-Tiny (28.6M parameters)
IMAGE_SIZE = 224  # the backbone's pretraining resolution
EPOCHS = 8  # passes over the training images (the time budget may stop sooner)
BATCH_SIZE = 64  # images per step
LR = 2e-4  # AdamW peak learning rate (warm-up, then cosine decay)
LABEL_SMOOTHING = 0.1  # keeps the network from becoming over-confident
HOLDOUT = 0.1  # share of train held out for the metric and the temperature
TTA_FLIPS = ("", "h")  # views averaged at test time
SMOKE_ROWS = 600  # --smoke: train on this many images ...
SMOKE_SIZE = 32  # ... at this size ...
SMOKE_STEPS = 30  # ... for this many steps ...
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
    train = pd.read_csv(public_dir / "labels.csv")
    test = pd.read_csv(public_dir / "sample_submission.csv")
    breeds = list(test.columns[1:])
    if smoke:
        train = train.sample(n=min(SMOKE_ROWS, len(train)), random_state=SEED)
    budget.log(
        f"read labels.csv: {len(train):,} images of {train['breed'].nunique()} breeds; "
        f"{len(test):,} test images; device {where}"
    )

    size = SMOKE_SIZE if smoke else IMAGE_SIZE
    images = load_images(
        [public_dir / "train" / f"{i}.jpg" for i in train["id"]], size, threads, budget.log
    )
    test_images = load_images(
        [public_dir / "test" / f"{i}.jpg" for i in test["id"]], size, threads, budget.log
    )
    y = train["breed"].map({b: k for k, b in enumerate(breeds)}).to_numpy()
    fit_rows, val_rows = train_test_split(
        np.arange(len(train)), test_size=HOLDOUT, random_state=SEED
    )

    model = image_classifier(HUB_ID, len(breeds), pretrained).to(where)
    budget.log(describe(model, HUB_ID, pretrained))
    batches = Batches(images, where, flips="h", seed=SEED)
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
    temperature = fit_temperature(val_logits, y[val_rows], multiclass=True)
    val_prob = softmax(val_logits, temperature)
    loss = float(log_loss(y[val_rows], val_prob, labels=np.arange(len(breeds))))
    metric_line(
        METRIC, loss, f"{HOLDOUT:.0%} hold-out of {len(train):,} images, T={temperature:.2f}"
    )
    test_logits = predict_logits(model, Batches(test_images, where), len(test), batch, TTA_FLIPS)
    submission = pd.DataFrame(softmax(test_logits, temperature), columns=breeds)
    submission.insert(0, "id", test["id"])
    write_submission(submission, out_path, budget)
    return loss


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
