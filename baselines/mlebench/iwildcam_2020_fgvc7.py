"""iwildcam-2020-fgvc7: an ImageNet ConvNeXt-Tiny fine-tuned at 384x384 on the camera-trap images
(cross-entropy with label smoothing), left-right flips as augmentation and at test time, its
probabilities averaged over each burst; a burst in which MegaDetector found no animal above a
confidence tuned on the hold-out is called empty.

    python -m baselines run --task mlebench/iwildcam-2020-fgvc7
    python -m baselines.mlebench.iwildcam_2020_fgvc7 --public-dir DATA/iwildcam-2020-fgvc7/prepared/public --out submission.csv

Why: 218k images from camera traps, half of them empty, the rest of 266 species; the test
traps are never seen in training, so the hold-out is by trap too. The competition ships
MegaDetector's boxes, a detector trained on millions of camera-trap images that finds
animals in unseen scenery far more reliably than a classifier trained on these traps, so it
decides empty or not, and the network which species. A burst's frames (``seq_id``) show one
scene, so their probabilities and detections are pooled. Reads
iwildcam2020_train_annotations.json, iwildcam2020_test_information.json,
iwildcam2020_megadetector_results.json and the JPEGs in train/ and test/; writes
``Id,Category``. Validation: a hold-out of 10% of the traps. Metric: accuracy (higher is
better).
"""

from __future__ import annotations

import json
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
from baselines.torchkit import autocast, fit, pick_device, setup, softmax
from baselines.vision import Batches, describe, image_classifier, load_images, predict_logits

METRIC = "accuracy"
SEED = 0  # hold-out split, head weights, batches
HUB_ID = "facebook/convnext-tiny-224"  # ImageNet-1k ConvNeXt-Tiny (28.6M parameters)
EMPTY = 0  # the category of an image without an animal
IMAGE_SIZE = 384  # images are 1920x1080 and larger; animals can be small
EPOCHS = 3  # passes over the training images (the time budget may stop sooner)
BATCH_SIZE = 64  # images per step
LR = 2e-4  # AdamW peak learning rate (warm-up, then cosine decay)
LABEL_SMOOTHING = 0.1  # burst-level labels are noisy for single frames
MAX_TRAIN = 120_000  # images decoded for training, a random sample (of 218k)
HOLDOUT = 0.1  # share of the traps held out for the metric and the detector's threshold
TTA_FLIPS = ("", "h")  # views averaged at test time
SMOKE_ROWS = 300  # --smoke: train on this many images ...
SMOKE_SIZE = 32  # ... at this size ...
SMOKE_STEPS = 20  # ... for this many steps ...
SMOKE_BATCH = 16  # ... of this many images
SMOKE_LR = 1e-3  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 120 * 60.0  # the whole script, data to file
THREADS = CORES  # image decoding and CPU training
RESERVE_S = 30.0  # kept back for writing (prediction time is measured and kept back too)


def decide(
    probabilities: np.ndarray, bursts: np.ndarray, detected: np.ndarray, threshold: float
) -> np.ndarray:
    """Class indexes: each burst's mean probabilities over its images, but ``EMPTY`` (column
    0) where no image of the burst has a detection of at least ``threshold``."""
    frame = pd.DataFrame(probabilities)
    pooled = frame.groupby(bursts).transform("mean").to_numpy()
    animal = pd.Series(detected).groupby(bursts).transform("max").to_numpy() >= threshold
    return np.where(animal, pooled.argmax(axis=1), 0)


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
    annotations = json.loads((public_dir / "iwildcam2020_train_annotations.json").read_text())
    train = pd.DataFrame(annotations["images"]).merge(
        pd.DataFrame(annotations["annotations"])[["image_id", "category_id"]],
        left_on="id",
        right_on="image_id",
    )
    information = json.loads((public_dir / "iwildcam2020_test_information.json").read_text())
    test = pd.DataFrame(information["images"])
    detections = json.loads((public_dir / "iwildcam2020_megadetector_results.json").read_text())
    confidence = {d["id"]: d["max_detection_conf"] for d in detections["images"]}
    cap = SMOKE_ROWS if smoke else MAX_TRAIN
    train = train.sample(n=min(cap, len(train)), random_state=SEED).reset_index(drop=True)
    budget.log(
        f"read annotations: {len(train):,} images ({(train['category_id'] == EMPTY).mean():.0%} "
        f"empty) of {train['category_id'].nunique()} categories from "
        f"{train['location'].nunique()} traps; {len(test):,} test images; device {where}"
    )

    size = SMOKE_SIZE if smoke else IMAGE_SIZE
    images = load_images(
        [public_dir / "train" / f for f in train["file_name"]], size, threads, budget.log
    )
    test_images = load_images(
        [public_dir / "test" / f for f in test["file_name"]], size, threads, budget.log
    )
    classes, y = np.unique(np.append(train["category_id"].to_numpy(), EMPTY), return_inverse=True)
    y = y[:-1]  # the empty category is class 0 whether or not the sample holds one
    fit_rows, val_rows = stratified_holdout(y, HOLDOUT, SEED, groups=train["location"])

    model = image_classifier(HUB_ID, len(classes), pretrained).to(where)
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

    val_prob = softmax(
        predict_logits(model, Batches(images[val_rows], where), len(val_rows), batch, TTA_FLIPS)
    )
    val = train.iloc[val_rows]
    val_detected = val["id"].map(confidence).fillna(0.0).to_numpy()
    thresholds = [0.0, 0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95]  # 0: the network alone
    scores = [
        float((decide(val_prob, val["seq_id"].to_numpy(), val_detected, t) == y[val_rows]).mean())
        for t in thresholds
    ]
    threshold, accuracy = thresholds[int(np.argmax(scores))], max(scores)
    metric_line(
        METRIC,
        accuracy,
        f"{len(val_rows):,} images of {val['location'].nunique()} held-out traps, empty "
        f"below detection confidence {threshold}",
    )
    test_prob = softmax(
        predict_logits(model, Batches(test_images, where), len(test), batch, TTA_FLIPS)
    )
    test_detected = test["id"].map(confidence).fillna(0.0).to_numpy()
    chosen = decide(test_prob, test["seq_id"].to_numpy(), test_detected, threshold)
    submission = pd.DataFrame({"Id": test["id"], "Category": classes[chosen]})
    write_submission(submission, out_path, budget)
    return accuracy


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
