"""imet-2020-fgvc7: an ImageNet ConvNeXt-Tiny fine-tuned at 320x320 with one sigmoid for each
attribute seen in training (a multi-label head: an object has one to a dozen attributes out of
3,474), left-right flips as augmentation and at test time, the attributes above one threshold
tuned for micro-F1 on the hold-out.

    python -m baselines run --task mlebench/imet-2020-fgvc7
    python -m baselines.mlebench.imet_2020_fgvc7 --public-dir DATA/imet-2020-fgvc7/prepared/public --out submission.csv

Why: 142k photographs of the Met's objects, each labelled with a set of attributes (country,
culture, medium, dimension, tags) that are not exclusive, so independent sigmoids; an ImageNet
backbone already tells materials and shapes apart. The attributes are long-tailed and the
labels sparse, so one threshold tuned on the hold-out (low, as is usual for sparse labels)
beats 0.5. Every object has at least one attribute, so the likeliest is written when none
clears the threshold. A column of single ids reads as numbers and the grader refuses it
(upstream's quirk), so should every row hold one id, the row likeliest to have a second gets
it. Reads public/train.csv, public/sample_submission.csv (the test ids), train/ and test/
(``<id>.png``); writes ``id,attribute_ids`` (space-separated ids). Validation: a random 10%
hold-out (label sets are too many to stratify by). Metric: micro-F1 of the attribute sets
(higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F

from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.multilabel import chosen, f_beta, tune_threshold
from baselines.torchkit import autocast, fit, pick_device, setup, sigmoid
from baselines.vision import Batches, describe, image_classifier, load_images, predict_logits

METRIC = "micro_f1"
SEED = 0  # hold-out split, head weights, batches
HUB_ID = "facebook/convnext-tiny-224"  # ImageNet-1k ConvNeXt-Tiny (28.6M parameters)
IMAGE_SIZE = 320  # photographs are about 300-800 px on the short side
EPOCHS = 6  # passes over the training images (the time budget may stop sooner)
BATCH_SIZE = 64  # images per step
LR = 3e-4  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.1  # share of train held out for the metric and the threshold
TTA_FLIPS = ("", "h")  # views averaged at test time
SMOKE_ROWS = 200  # --smoke: train on this many images ...
SMOKE_SIZE = 32  # ... at this size ...
SMOKE_STEPS = 20  # ... for this many steps ...
SMOKE_BATCH = 16  # ... of this many images
SMOKE_LR = 1e-3  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 100 * 60.0  # the whole script, data to file
THREADS = CORES  # image decoding and CPU training
RESERVE_S = 30.0  # kept back for writing (prediction time is measured and kept back too)


def never_all_single(picked: np.ndarray, probabilities: np.ndarray) -> np.ndarray:
    """``picked``, with a second label added to the row likeliest to have one when every row
    has exactly one (a column of single ids would be read as numbers)."""
    if len(picked) == 0 or (picked.sum(axis=1) != 1).any() or picked.shape[1] < 2:
        return picked
    second = np.where(picked, -1.0, probabilities)
    row = int(second.max(axis=1).argmax())
    picked = picked.copy()
    picked[row, int(second[row].argmax())] = True
    return picked


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
    train = pd.read_csv(public_dir / "train.csv", dtype=str)
    test = pd.read_csv(public_dir / "sample_submission.csv", dtype=str)
    if smoke:
        train = train.sample(n=min(SMOKE_ROWS, len(train)), random_state=SEED)
    sets = [s.split() for s in train["attribute_ids"]]
    names = sorted({a for s in sets for a in s}, key=int)
    budget.log(
        f"read train.csv: {len(train):,} images, {len(names):,} attributes seen, "
        f"{np.mean([len(s) for s in sets]):.1f} an image; {len(test):,} test images; "
        f"device {where}"
    )

    size = SMOKE_SIZE if smoke else IMAGE_SIZE
    images = load_images(
        [public_dir / "train" / f"{i}.png" for i in train["id"]], size, threads, budget.log
    )
    test_images = load_images(
        [public_dir / "test" / f"{i}.png" for i in test["id"]], size, threads, budget.log
    )
    column = {name: k for k, name in enumerate(names)}
    truth = np.zeros((len(train), len(names)), np.float32)
    for row, s in enumerate(sets):
        truth[row, [column[a] for a in s]] = 1
    order = np.random.default_rng(SEED).permutation(len(train))
    n_val = max(1, round(HOLDOUT * len(train)))
    fit_rows, val_rows = np.sort(order[n_val:]), np.sort(order[:n_val])

    model = image_classifier(HUB_ID, len(names), pretrained).to(where)
    budget.log(describe(model, HUB_ID, pretrained))
    batches = Batches(images, where, flips="h", seed=SEED)
    targets = torch.tensor(truth, device=where)

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        picked = fit_rows[rows]
        with autocast(where):
            logits = model(pixel_values=batches(picked, train=True)).logits
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
        predict_rows=(len(val_rows) + len(test)) * len(TTA_FLIPS),
        reserve_s=RESERVE_S,
        seed=SEED,
    )

    val_prob = sigmoid(
        predict_logits(model, Batches(images[val_rows], where), len(val_rows), batch, TTA_FLIPS)
    )
    threshold = tune_threshold(val_prob, truth[val_rows])
    micro_f1 = f_beta(chosen(val_prob, threshold), truth[val_rows])
    metric_line(
        METRIC,
        micro_f1,
        f"{HOLDOUT:.0%} hold-out of {len(train):,} images, threshold {threshold:.2f}",
    )
    test_prob = sigmoid(
        predict_logits(model, Batches(test_images, where), len(test), batch, TTA_FLIPS)
    )
    picked = never_all_single(chosen(test_prob, threshold), test_prob)
    attribute_ids = [" ".join(names[k] for k in np.flatnonzero(row)) for row in picked]
    submission = pd.DataFrame({"id": test["id"], "attribute_ids": attribute_ids})
    write_submission(submission, out_path, budget)
    return micro_f1


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
