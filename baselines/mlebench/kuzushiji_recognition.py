"""kuzushiji-recognition: two stages, as the winning solutions had them. CenterNet (a U-Net on an
ImageNet ResNet-18: a heatmap of character centres and each character's size) finds the
characters on the page; a ResNet-18 classifier names each one from its crop.

    python -m baselines run --task mlebench/kuzushiji-recognition
    python -m baselines.mlebench.kuzushiji_recognition --public-dir DATA/kuzushiji-recognition/prepared/public --out submission.csv

Why: a page holds some 150 characters of over 4,000 classes, most of them rare; a detector
with a class per heatmap would be enormous, while one heatmap of "a character is centred here"
learns from every character, and a classifier on crops sees each character at a useful size.
The metric scores only the predicted centre points (inside a true box of the same class), so
the box sizes serve only to cut the crops. The heatmap threshold is tuned for F1 on held-out
pages. Reads train.csv (``U+XXXX x y w h`` per character), train_images.zip and
test_images.zip (``<image_id>.jpg``; the ids from sample_submission.csv). Pages are read in
grey, squashed to the detector's size, and cropped for the classifier at full resolution.
Writes ``image_id,labels`` (``U+XXXX x y`` per character, page pixels; blank for none).
Validation: 10% of the pages held out. Metric: F1 of the centre points (higher is better).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from PIL import Image

from baselines.centernet import box_loss, box_targets, decode_boxes, start_heatmaps
from baselines.kit import CORES, Budget, metric_line, standalone, write_submission, zip_member
from baselines.segment import resnet_unet
from baselines.torchkit import autocast, fit, pick_device, setup
from baselines.vision import describe, image_classifier

METRIC = "f1"
SEED = 0  # held-out pages, weights of the new heads, batches
HUB_ID = "microsoft/resnet-18"  # ImageNet-1k ResNet-18, the detector's encoder and the classifier
PAGE_SIZE = (640, 1024)  # (width, height) the detector sees a page at (Kaggle's are ~2400x3900)
CROP = 64  # a character's crop for the classifier (pixels a side)
CROP_MARGIN = 0.15  # each crop takes this share of its box's size beyond each side
DETECTOR_SHARE = 0.5  # of the training time, for the detector (the rest: the classifier)
DETECTOR_EPOCHS = 30  # passes over the training pages (the time budget may stop sooner)
CLASSIFIER_EPOCHS = 10  # passes over the training characters
PAGE_BATCH = 8  # pages a detector step
CROP_BATCH = 256  # characters a classifier step
LR = 5e-4  # AdamW peak learning rate of both (warm-up, then cosine decay)
MAX_CHARACTERS = 600  # at most this many centres a page
SCORE_GRID = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6)  # candidate heatmap thresholds
HOLDOUT = 0.1  # share of the pages held out
SMOKE_PAGE_SIZE = (48, 64)  # --smoke: smaller pages ...
SMOKE_CROP = 24  # ... and crops ...
SMOKE_STEPS = 40  # ... for this many steps of each network ...
SMOKE_PAGE_BATCH = 8  # ... of this many pages ...
SMOKE_CROP_BATCH = 32  # ... or characters
TIME_BUDGET_S = 30 * 60.0  # the whole script, data to file
THREADS = CORES  # decoding and CPU training
RESERVE_S = 30.0  # kept back for writing (prediction time is measured and kept back too)


def parse_labels(text: object) -> tuple[list[str], np.ndarray]:
    """``U+XXXX x y w h ...`` as codes and corner boxes ``(N, 4)`` in page pixels."""
    tokens = text.split() if isinstance(text, str) else []
    codes = tokens[0::5]
    xywh = np.array(
        [[float(v) for v in tokens[i + 1 : i + 5]] for i in range(0, len(tokens), 5)], np.float32
    )
    boxes = xywh.reshape(-1, 4).copy()
    boxes[:, 2:] += boxes[:, :2]
    return codes, boxes


def read_page(
    archive: Path, image_id: str, size: tuple[int, int]
) -> tuple[np.ndarray, Image.Image]:
    """A page squashed to ``size`` (uint8 grey) and the page itself in grey."""
    page = Image.open(io.BytesIO(zip_member(archive, f"{image_id}.jpg"))).convert("L")
    return np.asarray(page.resize(size, Image.Resampling.BILINEAR)), page


def crops(page: Image.Image, boxes: np.ndarray, side: int) -> np.ndarray:
    """Each box of the page, with a margin, as a ``side`` x ``side`` uint8 crop."""
    out = np.zeros((len(boxes), side, side), np.uint8)
    for k, (x0, y0, x1, y1) in enumerate(boxes):
        mx, my = CROP_MARGIN * (x1 - x0), CROP_MARGIN * (y1 - y0)
        piece = page.crop(
            (int(x0 - mx), int(y0 - my), int(np.ceil(x1 + mx)), int(np.ceil(y1 + my)))
        )
        out[k] = np.asarray(piece.resize((side, side), Image.Resampling.BILINEAR))
    return out


def f1_counts(
    points: Sequence[tuple[str, float, float]], codes: Sequence[str], boxes: np.ndarray
) -> np.ndarray:
    """(true positives, false positives, false negatives) of one page: each true box in turn
    takes the first unused point of its class strictly inside it."""
    used = np.zeros(len(points), bool)
    tp = 0
    for code, (x0, y0, x1, y1) in zip(codes, boxes, strict=True):
        for i, (c, x, y) in enumerate(points):
            if not used[i] and c == code and x0 < x < x1 and y0 < y < y1:
                used[i], tp = True, tp + 1
                break
    return np.array([tp, len(points) - tp, len(codes) - tp])


def f1(counts: np.ndarray) -> float:
    tp, fp, fn = counts
    return float(2 * tp / (2 * tp + fp + fn)) if tp else 0.0


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
    Image.MAX_IMAGE_PIXELS = None
    train = pd.read_csv(public_dir / "train.csv")
    test = pd.read_csv(public_dir / "sample_submission.csv")
    size = SMOKE_PAGE_SIZE if smoke else PAGE_SIZE
    crop_side = SMOKE_CROP if smoke else CROP
    labels = [parse_labels(t) for t in train["labels"]]
    classes = sorted({c for codes, _ in labels for c in codes})
    class_of = {c: k for k, c in enumerate(classes)}

    def load(k: int) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
        small, page = read_page(public_dir / "train_images.zip", train["image_id"].iloc[k], size)
        return small, crops(page, labels[k][1], crop_side), page.size

    with ThreadPoolExecutor(max(1, threads)) as pool:
        loaded = list(pool.map(load, range(len(train))))
    pages = np.stack([small for small, _, _ in loaded])
    page_sizes = np.array([s for _, _, s in loaded], np.float32)  # (width, height)
    budget.log(f"read {len(train):,} training pages, {sum(len(c) for c, _ in labels):,} characters of "
               f"{len(classes):,} classes; device {where}")  # fmt: skip

    rng = np.random.default_rng(SEED)
    order = rng.permutation(len(train))
    n_held = max(2, round(HOLDOUT * len(train)))
    val_rows, fit_rows = np.sort(order[:n_held]), order[n_held:]
    scale = np.tile(np.array(size, np.float32) / page_sizes, 2)  # page pixels -> detector's
    wanted = [box_targets(labels[k][1] * scale[k], np.zeros(len(labels[k][1]), np.int64), 1, size[1], size[0])
              for k in range(len(train))]  # fmt: skip

    def inputs(pixels: np.ndarray) -> torch.Tensor:
        """Grey uint8 images as 3-channel tensors, ink dark on light as photographs."""
        x = torch.from_numpy(pixels).to(where).float().div_(255).sub_(0.5).div_(0.25)
        return x[:, None].expand(-1, 3, -1, -1)

    detector = start_heatmaps(resnet_unet(HUB_ID, 3, 3, pretrained), 1).to(where)
    budget.log(describe(detector, HUB_ID, pretrained) + " (CenterNet)")

    def detector_loss(rows: np.ndarray) -> torch.Tensor:
        picked = fit_rows[rows]
        heat, box_size, mask = (
            torch.stack([wanted[i][j] for i in picked]).to(where) for j in range(3)
        )
        with autocast(where):
            out = detector(inputs(pages[picked]))
        return box_loss(out.float(), heat, box_size, mask)

    page_batch = SMOKE_PAGE_BATCH if smoke else PAGE_BATCH
    share = Budget(budget.spent() + DETECTOR_SHARE * budget.left(), start=budget.start)
    fit(detector, len(fit_rows), detector_loss, epochs=DETECTOR_EPOCHS, batch_size=page_batch, lr=LR,
        budget=share, max_steps=SMOKE_STEPS if smoke else None,
        predict_rows=(len(val_rows) + len(test)) // 2, reserve_s=0.0, seed=SEED)  # fmt: skip

    fit_chars = np.concatenate([loaded[k][1] for k in fit_rows])
    fit_classes = torch.tensor([class_of[c] for k in fit_rows for c in labels[k][0]], device=where)
    classifier = image_classifier(HUB_ID, len(classes), pretrained).to(where)
    budget.log(
        describe(classifier, HUB_ID, pretrained) + f" ({len(fit_chars):,} training characters)"
    )

    def classifier_loss(rows: np.ndarray) -> torch.Tensor:
        with autocast(where):
            logits = classifier(pixel_values=inputs(fit_chars[rows])).logits
        return F.cross_entropy(logits.float(), fit_classes[rows], label_smoothing=0.1)

    crop_batch = SMOKE_CROP_BATCH if smoke else CROP_BATCH
    fit(classifier, len(fit_chars), classifier_loss, epochs=CLASSIFIER_EPOCHS, batch_size=crop_batch, lr=LR,
        budget=budget, max_steps=SMOKE_STEPS if smoke else None,
        predict_rows=(len(val_rows) + len(test)) * 100, reserve_s=RESERVE_S, seed=SEED)  # fmt: skip

    @torch.no_grad()
    def read_pages(
        small: np.ndarray, originals: Sequence[Image.Image]
    ) -> list[list[tuple[str, float, float, float]]]:
        """Per page: (code, x, y, heatmap score) of every centre found, in page pixels."""
        detector.eval(), classifier.eval()
        out = []
        for first in range(0, len(small), page_batch):
            with autocast(where):
                maps = detector(inputs(small[first : first + page_batch])).float()
            for k, page in enumerate(originals[first : first + page_batch]):
                boxes, _, scores = decode_boxes(maps[k], 1, MAX_CHARACTERS, min(SCORE_GRID))
                width, height = page.size
                boxes = boxes * np.array([width / size[0], height / size[1]] * 2)
                found = []
                if len(boxes):
                    pieces = crops(page, boxes, crop_side)
                    with autocast(where):
                        logits = torch.cat([classifier(pixel_values=inputs(pieces[i : i + crop_batch])).logits.float()
                                            for i in range(0, len(pieces), crop_batch)])  # fmt: skip
                    names = logits.argmax(1).cpu().numpy()
                    for (x0, y0, x1, y1), c, s in zip(boxes, names, scores, strict=True):
                        found.append((classes[c], (x0 + x1) / 2, (y0 + y1) / 2, float(s)))
                out.append(found)
        return out

    val_pages = [
        read_page(public_dir / "train_images.zip", train["image_id"].iloc[k], size)[1]
        for k in val_rows
    ]
    val_found = read_pages(pages[val_rows], val_pages)

    def score_at(threshold: float) -> float:
        counts = sum(f1_counts([(c, x, y) for c, x, y, s in found if s >= threshold], *labels[k])
                     for found, k in zip(val_found, val_rows, strict=True))  # fmt: skip
        return f1(np.asarray(counts))

    results = {t: score_at(t) for t in SCORE_GRID}
    threshold = max(results, key=lambda t: (results[t], -t))
    budget.log(
        f"centre threshold {threshold} ("
        + ", ".join(f"{t}: {v:.4f}" for t, v in results.items())
        + ")"
    )
    metric_line(
        METRIC, results[threshold], f"{len(val_rows):,} held-out pages, threshold tuned there"
    )

    written = []
    for first in range(0, len(test), 64):  # a chunk of pages at a time: the pages are large
        ids = test["image_id"].iloc[first : first + 64]
        with ThreadPoolExecutor(max(1, threads)) as pool:
            read = list(pool.map(lambda i: read_page(public_dir / "test_images.zip", i, size), ids))
        for found in read_pages(np.stack([small for small, _ in read]), [page for _, page in read]):
            written.append(
                " ".join(f"{c} {round(x)} {round(y)}" for c, x, y, s in found if s >= threshold)
            )
    write_submission(test.assign(labels=written), out_path, budget)
    return results[threshold]


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
