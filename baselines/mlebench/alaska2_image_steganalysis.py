"""alaska2-image-steganalysis: an ImageNet ConvNeXt-Tiny fine-tuned on the photographs at their
own pixels (random 256x256 crops, never resized; whole 512x512 images at test) as a four-way
classifier (cover, JMiPOD, JUNIWARD, UERD), flips of both axes as augmentation and at test
time; an image's score is 1 - P(cover).

    python -m baselines run --task mlebench/alaska2-image-steganalysis
    python -m baselines.mlebench.alaska2_image_steganalysis --public-dir DATA/alaska2-image-steganalysis/prepared/public --out submission.csv

Why: a hidden message is a change of a grey level or two in high frequencies, which any
resizing or blurring erases, so the network sees pixels as they are, cropped rather than
scaled. Each training cover comes with the same picture carrying a message by each of three
algorithms, and telling the algorithms apart is a richer signal than cover-or-not (the usual
approach of the competition's leaders), while the metric only asks "is there a message". A
message is no more likely in one corner than another, so flips are free views. Reads
Cover/, JMiPOD/, JUNIWARD/, UERD/ (the same file names) and Test/ with
sample_submission.csv (the test ids); at most ``MAX_COVERS`` covers (with their three
versions) are decoded. Writes ``Id,Label``. Validation: 10% of the covers, held out with their
three versions. Metric: the competition's weighted AUC (TPR below 0.4 counts twice; higher is
better).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from PIL import Image
from sklearn.metrics import auc, roc_curve

from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.torchkit import autocast, fit, pick_device, setup, softmax
from baselines.vision import Batches, describe, image_classifier, predict_logits

METRIC = "weighted_auc"
SEED = 0  # hold-out split, crops, head weights, batches
HUB_ID = "facebook/convnext-tiny-224"  # ImageNet-1k ConvNeXt-Tiny (28.6M parameters)
FOLDERS = ["Cover", "JMiPOD", "JUNIWARD", "UERD"]  # class 0 is the cover
CROP = 256  # training crop side, in the photographs' own pixels (they are 512x512)
MAX_COVERS = 30_000  # covers decoded for training, with their three versions (of 75k)
EPOCHS = 3  # passes over the training images (the time budget may stop sooner)
BATCH_SIZE = 64  # images per step
LR = 2e-4  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.1  # share of the covers held out for the metric
TTA_FLIPS = ("", "h", "v")  # views averaged at test time
SMOKE_COVERS = 60  # --smoke: train on this many covers (x4 images) ...
SMOKE_CROP = 32  # ... cropped to this size ...
SMOKE_STEPS = 40  # ... for this many steps (a message is faint: 20 learn nothing) ...
SMOKE_BATCH = 16  # ... of this many images
SMOKE_LR = 3e-4  # ... at a rate that does not drown the faint signal
TIME_BUDGET_S = 110 * 60.0  # the whole script, data to file
THREADS = CORES  # image decoding and CPU training
RESERVE_S = 30.0  # kept back for writing (prediction time is measured and kept back too)


def read_pixels(
    paths: Sequence[Path], crop: int | None, threads: int, log: Callable[[str], None], seed: int
) -> np.ndarray:
    """Every image as uint8 RGB, never resized: a random ``crop`` x ``crop`` window of each
    (the same window for the images at the same place in each quarter of ``paths``, i.e. a
    cover and its versions), or whole images (all of one size) when ``crop`` is None."""
    first = Image.open(paths[0]).size
    side = crop or first[0]
    rng = np.random.default_rng(seed)
    n_pictures = len(paths) // len(FOLDERS) if crop else len(paths)
    corners = rng.integers(0, max(1, first[0] - side + 1), (n_pictures, 2))
    out = np.zeros((len(paths), side, side, 3), np.uint8)
    step = max(1, len(paths) // 10)

    def load(k: int) -> None:
        with Image.open(paths[k]) as image:
            x, y = corners[k % n_pictures]
            out[k] = np.asarray(image.convert("RGB").crop((x, y, x + side, y + side)))

    with ThreadPoolExecutor(max(1, threads)) as pool:
        for done, _ in enumerate(pool.map(load, range(len(paths))), start=1):
            if done % step == 0 or done == len(paths):
                log(f"decoded {done:,}/{len(paths):,} images at {side}x{side}")
    return out


def weighted_auc(y: np.ndarray, score: np.ndarray) -> float:
    """The competition's AUC: the area below TPR 0.4 counts twice, above it once, over 1.4
    (the curve gets a point at TPR 0.4 by linear interpolation first)."""
    fpr, tpr, _ = roc_curve(y, score)
    cut = np.interp(0.4, tpr, fpr)
    at = int(np.searchsorted(tpr, 0.4))
    fpr, tpr = np.insert(fpr, at, cut), np.insert(tpr, at, 0.4)
    total = 0.0
    for low, high, weight in ((0.0, 0.4, 2), (0.4, 1.0, 1)):
        band = (low <= tpr) & (tpr <= high)
        xs, ys = np.append(fpr[band], 1.0), np.append(tpr[band], high) - low
        total += weight * float(auc(xs, ys))
    return total / 1.4


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
    covers = sorted(p.name for p in (public_dir / "Cover").iterdir())
    test = pd.read_csv(public_dir / "sample_submission.csv", dtype={"Id": str})
    rng = np.random.default_rng(SEED)
    keep = SMOKE_COVERS if smoke else MAX_COVERS
    covers = sorted(rng.permutation(covers)[:keep].tolist())
    budget.log(
        f"{len(covers):,} covers (x{len(FOLDERS)} images); {len(test):,} test images; "
        f"device {where}"
    )

    crop = SMOKE_CROP if smoke else CROP
    paths = [public_dir / folder / name for folder in FOLDERS for name in covers]
    images = read_pixels(paths, crop, threads, budget.log, SEED)
    test_images = read_pixels(
        [public_dir / "Test" / i for i in test["Id"]], None, threads, budget.log, SEED
    )
    y = np.repeat(np.arange(len(FOLDERS)), len(covers))
    picture = np.tile(np.arange(len(covers)), len(FOLDERS))
    held = rng.permutation(len(covers))[: max(1, round(HOLDOUT * len(covers)))]
    in_val = np.isin(picture, held)
    fit_rows, val_rows = np.flatnonzero(~in_val), np.flatnonzero(in_val)

    model = image_classifier(HUB_ID, len(FOLDERS), pretrained).to(where)
    budget.log(describe(model, HUB_ID, pretrained))
    batches = Batches(images, where, flips="hv", seed=SEED)
    targets = torch.tensor(y, device=where)

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        picked = fit_rows[rows]
        with autocast(where):
            logits = model(pixel_values=batches(picked, train=True)).logits
        return F.cross_entropy(logits.float(), targets[picked])

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
        predict_rows=(len(val_rows) + 4 * len(test)) * len(TTA_FLIPS),  # test: 4x the pixels
        reserve_s=RESERVE_S,
        seed=SEED,
    )

    val_logits = predict_logits(
        model, Batches(images[val_rows], where), len(val_rows), batch, TTA_FLIPS
    )
    score = weighted_auc(y[val_rows] > 0, 1 - softmax(val_logits)[:, 0])
    metric_line(METRIC, score, f"{len(held):,} held-out covers and their versions")
    test_logits = predict_logits(
        model, Batches(test_images, where), len(test), max(1, batch // 4), TTA_FLIPS
    )
    submission = pd.DataFrame({"Id": test["Id"], "Label": 1 - softmax(test_logits)[:, 0]})
    write_submission(submission, out_path, budget)
    return score


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
