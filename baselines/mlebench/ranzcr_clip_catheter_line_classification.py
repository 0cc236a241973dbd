"""ranzcr-clip-catheter-line-classification: an ImageNet ConvNeXt-Tiny fine-tuned at 512x512
on all 11 tube labels at once (11 sigmoid outputs), flips as augmentation; the 9 graded
columns are written.

    python -m baselines run --task mlebench/ranzcr-clip-catheter-line-classification
    python -m baselines.mlebench.ranzcr_clip_catheter_line_classification --public-dir DATA/ranzcr-clip-catheter-line-classification/prepared/public --out submission.csv

Why: whether a tube is well placed depends on where its thin tip lies, which needs
resolution; the labels of one tube are related, and learning all 11 (the two ungraded ones
included) shares that knowledge. Only horizontal flips: tubes enter from the top, so a
vertical flip would make an impossible radiograph. Reads public/train.csv and the JPEGs in
train/ and test/ (test ids from sample_submission.csv); writes ``StudyInstanceUID`` and the
9 graded probabilities. Validation: a 10% hold-out by patient, so no patient is on both
sides. Metric: mean ROC-AUC over the 9 graded columns (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GroupShuffleSplit

from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.torchkit import autocast, fit, pick_device, setup, sigmoid
from baselines.vision import Batches, describe, image_classifier, load_images, predict_logits

METRIC = "mean_auc"
SEED = 0  # hold-out split, head weights, batches
HUB_ID = "facebook/convnext-tiny-224"  # ImageNet-1k ConvNeXt-Tiny (28.6M parameters)
IMAGE_SIZE = 512  # tube tips are thin
EPOCHS = 6  # passes over the training images (the time budget may stop sooner)
BATCH_SIZE = 32  # images per step
LR = 2e-4  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.1  # share of patients held out for the metric
TTA_FLIPS = ("", "h")  # views averaged at test time
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
    test = pd.read_csv(public_dir / "sample_submission.csv")
    labels = [c for c in train.columns if c not in ("StudyInstanceUID", "PatientID")]
    graded = list(test.columns[1:])
    if smoke:
        train = train.sample(n=min(SMOKE_ROWS, len(train)), random_state=SEED)
    budget.log(
        f"read train.csv: {len(train):,} radiographs, {len(labels)} labels; "
        f"{len(test):,} test; device {where}"
    )

    size = SMOKE_SIZE if smoke else IMAGE_SIZE
    uids, test_uids = train["StudyInstanceUID"], test["StudyInstanceUID"]
    images = load_images(
        [public_dir / "train" / f"{u}.jpg" for u in uids], size, threads, budget.log
    )
    test_images = load_images(
        [public_dir / "test" / f"{u}.jpg" for u in test_uids], size, threads, budget.log
    )
    y = train[labels].to_numpy(np.float32)
    split = GroupShuffleSplit(n_splits=1, test_size=HOLDOUT, random_state=SEED)
    fit_rows, val_rows = next(split.split(y, groups=train["PatientID"]))

    model = image_classifier(HUB_ID, len(labels), pretrained).to(where)
    budget.log(describe(model, HUB_ID, pretrained))
    batches = Batches(images, where, flips="h", seed=SEED)
    targets = torch.tensor(y, device=where)

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
    truth = y[val_rows]
    scored = [labels.index(c) for c in graded if 0 < truth[:, labels.index(c)].sum() < len(truth)]
    auc = float(np.mean([roc_auc_score(truth[:, k], val_prob[:, k]) for k in scored]))
    metric_line(
        METRIC, auc, f"hold-out of {len(val_rows):,} images by patient, {len(scored)} classes"
    )
    test_prob = sigmoid(
        predict_logits(model, Batches(test_images, where), len(test), batch, TTA_FLIPS)
    )
    submission = pd.DataFrame(test_prob[:, [labels.index(c) for c in graded]], columns=graded)
    submission.insert(0, "StudyInstanceUID", test_uids)
    write_submission(submission, out_path, budget)
    return auc


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
