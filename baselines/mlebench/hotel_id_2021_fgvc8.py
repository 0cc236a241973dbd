"""hotel-id-2021-fgvc8: retrieval by embedding. An ImageNet ConvNeXt-Tiny fine-tuned at 320x320
as a classifier over the training hotels (cross-entropy with label smoothing) gives each
photograph an embedding (its pooled backbone features, normalised); a test photograph ranks the
hotels of its nearest training photographs by cosine similarity, the five best first.

    python -m baselines run --task mlebench/hotel-id-2021-fgvc8
    python -m baselines.mlebench.hotel_id_2021_fgvc8 --public-dir DATA/hotel-id-2021-fgvc8/prepared/public --out submission.csv

Why: 88k room photographs of 7.8k hotels, about 11 a hotel: too few for a classifier head to
learn each hotel well, enough for an embedding in which one hotel's rooms (same furniture,
walls, bed covers) lie together; nearest neighbours then use every training photograph as it
is, including the rare hotels. Rooms are photographed upright, so only left-right flips.
Reads public/train.csv, public/sample_submission.csv (the test images) and the JPEGs in
train_images/<chain>/ and test_images/; writes ``image,hotel_id`` (five hotel ids,
space-separated; the commonest hotels fill a ranking its neighbours leave short).
Validation: a 10% hold-out stratified by hotel, retrieved from the rest. Metric: MAP@5
(higher is better).
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
from baselines.retrieval import embed, map_at_k, nearest, ranked_labels
from baselines.torchkit import autocast, fit, pick_device, setup
from baselines.vision import Batches, describe, image_classifier, load_images

METRIC = "map_at_5"
SEED = 0  # hold-out split, head weights, batches
HUB_ID = "facebook/convnext-tiny-224"  # ImageNet-1k ConvNeXt-Tiny (28.6M parameters)
IMAGE_SIZE = 320  # rooms are told apart by furniture and fabric patterns
EPOCHS = 8  # passes over the training images (the time budget may stop sooner)
BATCH_SIZE = 64  # images per step
LR = 3e-4  # AdamW peak learning rate (warm-up, then cosine decay)
LABEL_SMOOTHING = 0.1  # a softer target spreads the embedding of a hotel's rooms less thin
NEIGHBOURS = 50  # training images a query looks at to rank its hotels
TOP_K = 5  # hotel ids written a row
HOLDOUT = 0.1  # share of train held out for the metric
TTA_FLIPS = ("", "h")  # views averaged in each embedding
SMOKE_ROWS = 240  # --smoke: train on this many images ...
SMOKE_SIZE = 32  # ... at this size ...
SMOKE_STEPS = 20  # ... for this many steps ...
SMOKE_BATCH = 16  # ... of this many images
SMOKE_LR = 1e-3  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 90 * 60.0  # the whole script, data to file
THREADS = CORES  # image decoding and CPU training
RESERVE_S = 30.0  # kept back for writing (prediction time is measured and kept back too)


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
    if smoke:
        train = train.sample(n=min(SMOKE_ROWS, len(train)), random_state=SEED)
    budget.log(
        f"read train.csv: {len(train):,} images of {train['hotel_id'].nunique():,} hotels; "
        f"{len(test):,} test images; device {where}"
    )

    size = SMOKE_SIZE if smoke else IMAGE_SIZE
    folder = public_dir / "train_images"
    images = load_images(
        [folder / str(c) / i for c, i in zip(train["chain"], train["image"], strict=True)],
        size,
        threads,
        budget.log,
    )
    test_images = load_images(
        [public_dir / "test_images" / i for i in test["image"]], size, threads, budget.log
    )
    hotels = train["hotel_id"].to_numpy()
    classes, y = np.unique(hotels, return_inverse=True)
    fit_rows, val_rows = stratified_holdout(y, HOLDOUT, SEED)

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
        predict_rows=(len(train) + len(test)) * len(TTA_FLIPS),
        reserve_s=RESERVE_S,
        seed=SEED,
    )

    gallery = embed(model, Batches(images, where), len(train), batch, TTA_FLIPS)
    budget.log(f"embedded {len(train):,} training images ({gallery.shape[1]} dimensions)")
    commonest = list(pd.Series(hotels[fit_rows]).value_counts().index[:TOP_K])

    def rank(query: np.ndarray, rows: np.ndarray) -> list[list[int]]:
        similarity, neighbour = nearest(query, gallery[rows], NEIGHBOURS, where)
        found = ranked_labels(similarity, neighbour, hotels[rows], TOP_K)
        return [
            ([h for h, _ in f] + [c for c in commonest if c not in dict(f)])[:TOP_K] for f in found
        ]

    score = map_at_k(rank(gallery[val_rows], fit_rows), hotels[val_rows], TOP_K)
    metric_line(
        METRIC, score, f"{HOLDOUT:.0%} hold-out of {len(train):,} images, retrieved from the rest"
    )
    query = embed(model, Batches(test_images, where), len(test), batch, TTA_FLIPS)
    rankings = rank(query, np.arange(len(train)))  # every training image in the gallery
    submission = pd.DataFrame(
        {"image": test["image"], "hotel_id": [" ".join(map(str, r)) for r in rankings]}
    )
    write_submission(submission, out_path, budget)
    return score


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
