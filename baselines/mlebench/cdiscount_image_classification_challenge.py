"""cdiscount-image-classification-challenge: an ImageNet ConvNeXt-Tiny fine-tuned at 160x160 as
a classifier over the categories, on the pictures of the first products of train.bson (each
picture labelled with its product's category; cross-entropy with label smoothing); a test
product takes the category of its pictures' mean logits, test.bson streamed in chunks.

    python -m baselines run --task mlebench/cdiscount-image-classification-challenge
    python -m baselines.mlebench.cdiscount_image_classification_challenge --public-dir DATA/cdiscount-image-classification-challenge/prepared/public --out submission.csv

Why: 7M products (12M 180x180 pictures, 58 GB of BSON) of 5,270 categories: more than two
hours on one GPU can read, let alone train on, so the script trains on a prefix of the file
(the products are in ``_id`` order, which is unrelated to category, so a prefix is a random
sample) and spends the rest of its time on the 707k test products, which must all be
predicted. A product's pictures are views of one thing, so their logits are averaged. The
time to predict is estimated from test.bson's size before training starts and kept back.
Reads train.bson and test.bson (BSON documents: ``_id``, ``imgs`` of JPEG bytes and, in
train, ``category_id``) with pymongo's ``bson``; writes ``_id,category_id``. Validation: a 5%
hold-out of the sampled products. Metric: accuracy (higher is better).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from itertools import islice
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
IMAGE_SIZE = 160  # the pictures are 180x180
MAX_TRAIN_PRODUCTS = 150_000  # products read from the head of train.bson (~260k pictures)
EPOCHS = 4  # passes over their pictures (the time budget may stop sooner)
BATCH_SIZE = 256  # pictures per step
LR = 5e-4  # AdamW peak learning rate (warm-up, then cosine decay)
LABEL_SMOOTHING = 0.1  # many categories are near neighbours
HOLDOUT = 0.05  # share of the sampled products held out for the metric
TEST_CHUNK = 20_000  # test products decoded and predicted at a time
SMOKE_PRODUCTS = 400  # --smoke: products read ...
SMOKE_SIZE = 32  # ... at this size ...
SMOKE_STEPS = 30  # ... for this many steps ...
SMOKE_BATCH = 16  # ... of this many pictures
SMOKE_LR = 1e-3  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 120 * 60.0  # the whole script, data to file
THREADS = CORES  # JPEG decoding and CPU training
RESERVE_S = 60.0  # kept back for writing (prediction time is estimated and kept back too)


def products(path: Path) -> Iterator[dict[str, object]]:
    """The BSON documents of ``path``, one product at a time."""
    import bson

    with open(path, "rb") as f:
        yield from bson.decode_file_iter(f)


def pictures(chunk: list[dict[str, object]]) -> tuple[list[bytes], np.ndarray]:
    """Every picture's JPEG bytes, and the product (row in ``chunk``) of each."""
    jpegs = [[image["picture"] for image in p["imgs"]] for p in chunk]  # type: ignore[attr-defined]
    owner = np.repeat(np.arange(len(chunk)), [len(j) for j in jpegs])
    return [j for group in jpegs for j in group], owner


def per_product(logits: np.ndarray, owner: np.ndarray, n: int) -> np.ndarray:
    """Each product's mean logits over its pictures."""
    sums = np.zeros((n, logits.shape[1]), np.float64)
    np.add.at(sums, owner, logits)
    return sums / np.maximum(np.bincount(owner, minlength=n), 1)[:, None]


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
    n_products = SMOKE_PRODUCTS if smoke else MAX_TRAIN_PRODUCTS
    sampled = list(islice(products(public_dir / "train.bson"), n_products))
    jpegs, owner = pictures(sampled)
    category = np.array([p["category_id"] for p in sampled])
    classes = np.unique(category)
    y_product = np.searchsorted(classes, category)
    bytes_per_picture = sum(map(len, jpegs)) / max(1, len(jpegs)) * 1.1  # BSON adds ~10%
    test_pictures = int((public_dir / "test.bson").stat().st_size / bytes_per_picture)
    budget.log(
        f"read train.bson's first {len(sampled):,} products ({len(jpegs):,} pictures, "
        f"{len(classes):,} categories); ~{test_pictures:,} test pictures; device {where}"
    )

    size = SMOKE_SIZE if smoke else IMAGE_SIZE
    images = load_images(jpegs, size, threads, budget.log, "pictures")
    del jpegs
    fit_products, val_products = stratified_holdout(y_product, HOLDOUT, SEED)
    fit_rows = np.flatnonzero(np.isin(owner, fit_products))
    val_rows = np.flatnonzero(np.isin(owner, val_products))
    y = y_product[owner]

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
        predict_rows=len(val_rows) + 2 * test_pictures,  # decoding costs about a forward pass
        reserve_s=RESERVE_S,
        seed=SEED,
    )

    val_logits = predict_logits(
        model, Batches(images[val_rows], where), len(val_rows), batch, ("",)
    )
    mean = per_product(
        val_logits, np.searchsorted(val_products, owner[val_rows]), len(val_products)
    )
    accuracy = float((mean.argmax(axis=1) == y_product[val_products]).mean())
    metric_line(METRIC, accuracy, f"{HOLDOUT:.0%} hold-out of {len(sampled):,} products")

    ids: list[int] = []
    guesses: list[np.ndarray] = []
    stream = products(public_dir / "test.bson")
    while chunk := list(islice(stream, TEST_CHUNK)):
        chunk_jpegs, chunk_owner = pictures(chunk)
        chunk_images = load_images(chunk_jpegs, size, threads, lambda _: None)
        logits = predict_logits(
            model, Batches(chunk_images, where), len(chunk_images), batch, ("",)
        )
        guesses.append(classes[per_product(logits, chunk_owner, len(chunk)).argmax(axis=1)])
        ids.extend(int(p["_id"]) for p in chunk)  # type: ignore[call-overload]
        budget.log(f"predicted {len(ids):,} test products")
    submission = pd.DataFrame({"_id": ids, "category_id": np.concatenate(guesses)})
    write_submission(submission.sort_values("_id"), out_path, budget)
    return accuracy


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
