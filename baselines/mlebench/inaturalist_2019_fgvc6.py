"""inaturalist-2019-fgvc6: an ImageNet ConvNeXt-Tiny fine-tuned at 224x224 as a classifier over
the 1,010 species on a per-species sample of the photographs (cross-entropy with label
smoothing, left-right flips as augmentation and at test time); the likeliest species is the
guess.

    python -m baselines run --task mlebench/inaturalist-2019-fgvc6
    python -m baselines.mlebench.inaturalist_2019_fgvc6 --public-dir DATA/inaturalist-2019-fgvc6/prepared/public --out submission.csv

Why: 265k photographs of 1,010 species, 50 to 500 of each: enough for a classifier's head
(unlike Herbarium's thin classes, no retrieval is needed), and a pretrained backbone already
tells fur from feathers. Capping the photographs of a species evens out the classes and fits
the images decoded at 224 px in memory; a photograph of an animal has no left or right, so the
mirror image is a free view. The images are read straight out of the two archives (plain tar
files, though named ``.tar.gz``), each member at its offset, never extracted to disk. Reads
public/train2019.json (images and their species), public/test2019.json (the test images),
public/kaggle_sample_submission.csv (the test ids), train_val2019.tar.gz and
test2019.tar.gz; writes ``id,predicted``. Validation: a 10% hold-out stratified by species.
Metric: top-1 error (lower is better).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F

from baselines.herbarium import sample_sheets
from baselines.kit import (
    CORES,
    Budget,
    metric_line,
    standalone,
    stratified_holdout,
    tar_index,
    write_submission,
)
from baselines.torchkit import autocast, fit, pick_device, setup
from baselines.vision import Batches, describe, image_classifier, load_images, predict_logits

METRIC = "top1_error"
SEED = 0  # sample, hold-out split, head weights, batches
HUB_ID = "facebook/convnext-tiny-224"  # ImageNet-1k ConvNeXt-Tiny (28.6M parameters)
IMAGE_SIZE = 224  # the backbone's pretraining size; photographs are 800 px
MAX_PER_SPECIES = 150  # photographs sampled a species ...
MAX_TRAIN = 150_000  # ... and in all (decoded in memory at IMAGE_SIZE)
EPOCHS = 6  # passes over the sample (the time budget may stop sooner)
BATCH_SIZE = 128  # images per step
LR = 4e-4  # AdamW peak learning rate (warm-up, then cosine decay)
LABEL_SMOOTHING = 0.1  # against look-alike species
HOLDOUT = 0.1  # share of the sample held out for the metric
TTA_FLIPS = ("", "h")  # views averaged at test time
SMOKE_SIZE = 32  # --smoke: train at this size ...
SMOKE_STEPS = 30  # ... for this many steps ...
SMOKE_BATCH = 16  # ... of this many images
SMOKE_LR = 1e-3  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 120 * 60.0  # the whole script, data to file
THREADS = CORES  # image decoding and CPU training
RESERVE_S = 60.0  # kept back for writing (prediction time is measured and kept back too)


def members(archive: Path, file_names: pd.Series) -> list[tuple[Path, str]]:
    """Each JSON ``file_name`` as a member of ``archive``: named as it is, or without its first
    folder (``train_val2019/Plants/...`` stored as ``Plants/...``)."""
    names = tar_index(archive)
    return [(archive, f if f in names else f.split("/", 1)[1]) for f in file_names]


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
    meta = json.loads((public_dir / "train2019.json").read_text())
    files = pd.DataFrame(meta["images"]).set_index("id")["file_name"]
    train = pd.DataFrame(meta["annotations"])[["image_id", "category_id"]]
    test_files = pd.DataFrame(json.loads((public_dir / "test2019.json").read_text())["images"])
    test = pd.read_csv(public_dir / "kaggle_sample_submission.csv")[["id"]]
    budget.log(
        f"read train2019.json: {len(train):,} photographs of {train['category_id'].nunique():,} "
        f"species; {len(test):,} test photographs; device {where}"
    )

    species = train["category_id"].to_numpy()
    kept = sample_sheets(species, MAX_PER_SPECIES, MAX_TRAIN, SEED)
    train, species = train.iloc[kept].reset_index(drop=True), species[kept]
    classes = np.unique(species)
    y = np.searchsorted(classes, species)
    size = SMOKE_SIZE if smoke else IMAGE_SIZE
    sources = members(public_dir / "train_val2019.tar.gz", files.loc[train["image_id"]])
    images = load_images(sources, size, threads, budget.log, "training photographs")
    test_names = test_files.set_index("id")["file_name"].loc[test["id"]]
    test_sources = members(public_dir / "test2019.tar.gz", test_names)
    test_images = load_images(test_sources, size, threads, budget.log, "test photographs")
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
        predict_rows=(len(val_rows) + len(test)) * len(TTA_FLIPS),
        reserve_s=RESERVE_S,
        seed=SEED,
    )

    val_logits = predict_logits(
        model, Batches(images[val_rows], where), len(val_rows), batch, TTA_FLIPS
    )
    error = float((val_logits.argmax(axis=1) != y[val_rows]).mean())
    metric_line(METRIC, error, f"{HOLDOUT:.0%} hold-out of {len(train):,} sampled photographs")
    test_logits = predict_logits(model, Batches(test_images, where), len(test), batch, TTA_FLIPS)
    submission = pd.DataFrame({"id": test["id"], "predicted": classes[test_logits.argmax(axis=1)]})
    write_submission(submission, out_path, budget)
    return error


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
