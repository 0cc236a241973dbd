"""plant-seedlings-classification: an ImageNet ConvNeXt-Tiny fine-tuned at 384x384 as a
twelve-way classifier of the seedling photographs (cross-entropy with label smoothing), flips of
both axes as augmentation and at test time.

    python -m baselines run --task mlebench/plant-seedlings-classification
    python -m baselines.mlebench.plant_seedlings_classification --public-dir DATA/plant-seedlings-classification/prepared/public --out submission.csv

Why: 4.7k photographs taken from above of twelve species, told apart by leaf shape and count
(black-grass and silky-bent, both thin blades, are the hard pair); a pretrained backbone at a
size that keeps the blades' width learns them in a few epochs. Seen from above a seedling has
no up or left, so every flip is a free view. There is no train CSV: the folders under train/
are the labels. Reads train/<species>/*.png, public/sample_submission.csv (the test files)
and test/; writes ``file,species``. Validation: a stratified 10% hold-out. Metric: micro-F1,
which with one label a row is accuracy (higher is better).
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

METRIC = "micro_f1"
SEED = 0  # hold-out split, head weights, batches
HUB_ID = "facebook/convnext-tiny-224"  # ImageNet-1k ConvNeXt-Tiny (28.6M parameters)
IMAGE_SIZE = 384  # photographs of 50 to 3,000 pixels; blades are thin
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
    train = pd.DataFrame(
        [(p.name, p.parent.name) for p in sorted((public_dir / "train").glob("*/*.png"))],
        columns=["file", "species"],
    )
    test = pd.read_csv(public_dir / "sample_submission.csv", dtype=str)
    if smoke:
        train = train.sample(n=min(SMOKE_ROWS, len(train)), random_state=SEED)
    budget.log(
        f"read train/: {len(train):,} images of {train['species'].nunique()} species; "
        f"{len(test):,} test images; device {where}"
    )

    size = SMOKE_SIZE if smoke else IMAGE_SIZE
    folder = public_dir / "train"
    images = load_images(
        [folder / label / i for i, label in zip(train["file"], train["species"], strict=True)],
        size,
        threads,
        budget.log,
    )
    test_images = load_images(
        [public_dir / "test" / i for i in test["file"]], size, threads, budget.log
    )
    species = sorted(train["species"].unique())
    y = train["species"].map({s: k for k, s in enumerate(species)}).to_numpy()
    fit_rows, val_rows = stratified_holdout(y, HOLDOUT, SEED)

    model = image_classifier(HUB_ID, len(species), pretrained).to(where)
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
    micro_f1 = float((val_logits.argmax(axis=1) == y[val_rows]).mean())  # = accuracy
    metric_line(METRIC, micro_f1, f"{HOLDOUT:.0%} hold-out of {len(train):,} images")
    test_logits = predict_logits(model, Batches(test_images, where), len(test), batch, TTA_FLIPS)
    labels = np.asarray(species)[test_logits.argmax(axis=1)]
    submission = pd.DataFrame({"file": test["file"], "species": labels})
    write_submission(submission, out_path, budget)
    return micro_f1


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
