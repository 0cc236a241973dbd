"""seti-breakthrough-listen: an ImageNet ConvNeXt-Tiny fine-tuned at 256x256 on each cadence drawn
as one picture (the three on-target spectrograms, the three off-target ones, and their
difference as the three colour channels; binary cross-entropy), left-right flips as
augmentation and at test time.

    python -m baselines run --task mlebench/seti-breakthrough-listen
    python -m baselines.mlebench.seti_breakthrough_listen --public-dir DATA/seti-breakthrough-listen/prepared/public --out submission.csv

Why: a cadence is six spectrograms (time x frequency) observed on, off, on, off, on, off the
target; a signal of interest is a narrow line drifting in frequency that shows only while the
telescope points at the target, while interference shows in all six. Putting the on and off
observations side by side as colours, and their difference as the third, lets a pretrained
backbone see "in one, not in the other" as colour. The cadence is standardised per
frequency channel over all six observations (the receiver's band shape differs channel to
channel), which also flattens interference present in every observation. Frequency has no preferred direction of drift, so left-right flips are free views. Reads
public/train_labels.csv, public/sample_submission.csv (the test ids) and
train/<id[0]>/<id>.npy, test/<id[0]>/<id>.npy (float16, 6 x time x frequency); the withdrawn
old_leaky_data/ is not used. Writes ``id,target`` with the probability of a signal.
Validation: a stratified 10% hold-out. Metric: ROC-AUC (higher is better).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from PIL import Image
from sklearn.metrics import roc_auc_score

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
HUB_ID = "facebook/convnext-tiny-224"  # ImageNet-1k ConvNeXt-Tiny (28.6M parameters)
IMAGE_SIZE = 256  # the three stacked observations (819 x 256) squashed to a square
CLIP = 3.0  # standardised power clipped to +-CLIP before it becomes a grey level
EPOCHS = 6  # passes over the training cadences (the time budget may stop sooner)
BATCH_SIZE = 64  # cadences per step
LR = 2e-4  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.1  # share of train held out for the metric
TTA_FLIPS = ("", "h")  # views averaged at test time
SMOKE_ROWS = 200  # --smoke: train on this many cadences ...
SMOKE_SIZE = 32  # ... at this size ...
SMOKE_STEPS = 20  # ... for this many steps ...
SMOKE_BATCH = 16  # ... of this many cadences
SMOKE_LR = 1e-3  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 100 * 60.0  # the whole script, data to file
THREADS = CORES  # file reading and CPU training
RESERVE_S = 30.0  # kept back for writing (prediction time is measured and kept back too)


def picture(cadence: np.ndarray, size: int) -> np.ndarray:
    """One cadence (6, time, frequency) as a ``size`` x ``size`` x 3 uint8 picture: the on
    observations stacked in time, the off ones, and on less off, standardised per frequency
    channel over the whole cadence (a steady line in all six vanishes) and clipped to
    +-``CLIP``."""
    x = cadence.astype(np.float32)
    x = (x - x.mean(axis=(0, 1))) / (x.std(axis=(0, 1)) + 1e-6)
    on, off = np.concatenate(x[0::2]), np.concatenate(x[1::2])
    channels = []
    for part in (on, off, on - off):
        grey = np.clip((part + CLIP) * (255 / (2 * CLIP)), 0, 255).astype(np.uint8)
        image = Image.fromarray(grey).resize((size, size), Image.Resampling.BILINEAR)
        channels.append(np.asarray(image))
    return np.stack(channels, axis=2)


def load_cadences(
    folder: Path, ids: pd.Series, size: int, threads: int, log: Callable[[str], None]
) -> np.ndarray:
    """Every cadence of ``ids`` (``folder/<id[0]>/<id>.npy``) as pictures, (N, size, size, 3)."""
    out = np.zeros((len(ids), size, size, 3), np.uint8)
    paths = [folder / i[0] / f"{i}.npy" for i in ids]
    step = max(1, len(paths) // 10)

    def load(k: int) -> None:
        out[k] = picture(np.load(paths[k]), size)

    with ThreadPoolExecutor(max(1, threads)) as pool:
        for done, _ in enumerate(pool.map(load, range(len(paths))), start=1):
            if done % step == 0 or done == len(paths):
                log(f"read {done:,}/{len(paths):,} cadences from {folder.name}/")
    return out


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
    train = pd.read_csv(public_dir / "train_labels.csv", dtype={"id": str})
    test = pd.read_csv(public_dir / "sample_submission.csv", dtype={"id": str})
    if smoke:
        train = train.sample(n=min(SMOKE_ROWS, len(train)), random_state=SEED)
    budget.log(
        f"read train_labels.csv: {len(train):,} cadences ({train['target'].mean():.1%} with "
        f"a signal); {len(test):,} test cadences; device {where}"
    )

    size = SMOKE_SIZE if smoke else IMAGE_SIZE
    images = load_cadences(public_dir / "train", train["id"], size, threads, budget.log)
    test_images = load_cadences(public_dir / "test", test["id"], size, threads, budget.log)
    y = train["target"].to_numpy()
    fit_rows, val_rows = stratified_holdout(y, HOLDOUT, SEED)

    model = image_classifier(HUB_ID, 1, pretrained).to(where)
    budget.log(describe(model, HUB_ID, pretrained))
    batches = Batches(images, where, flips="h", seed=SEED)
    targets = torch.tensor(y, dtype=torch.float32, device=where)

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
        predict_rows=(len(val_rows) + len(test)) * len(TTA_FLIPS),
        reserve_s=RESERVE_S,
        seed=SEED,
    )

    val_logits = predict_logits(
        model, Batches(images[val_rows], where), len(val_rows), batch, TTA_FLIPS
    )[:, 0]
    both = 0 < y[val_rows].sum() < len(val_rows)
    auc = float(roc_auc_score(y[val_rows], val_logits)) if both else float("nan")
    metric_line(METRIC, auc, f"{HOLDOUT:.0%} hold-out of {len(train):,} cadences")
    test_logits = predict_logits(model, Batches(test_images, where), len(test), batch, TTA_FLIPS)
    submission = pd.DataFrame({"id": test["id"], "target": sigmoid(test_logits[:, 0])})
    write_submission(submission, out_path, budget)
    return auc


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
