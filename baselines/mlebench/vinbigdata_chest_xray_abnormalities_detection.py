"""vinbigdata-chest-xray-abnormalities-detection: CenterNet (a U-Net on an ImageNet ResNet-50,
one heatmap per kind of finding and the box size at each peak) finding the 14 kinds of
finding, trained on the three radiologists' boxes merged per image and class, and a
ConvNeXt-Tiny telling normal radiographs from abnormal ones; each image lists its boxes, their
confidence scaled by the probability that it is abnormal, and "No finding" (class 14) with the
probability that it is normal.

    python -m baselines run --task mlebench/vinbigdata-chest-xray-abnormalities-detection
    python -m baselines.mlebench.vinbigdata_chest_xray_abnormalities_detection --public-dir DATA/vinbigdata-chest-xray-abnormalities-detection/prepared/public --out submission.csv

Why: the readers disagree by a few pixels and miss findings, so their boxes of one class that
overlap (IoU above 0.4, the metric's own threshold) are averaged into one (``boxes.merge_boxes``,
a light weighted-box fusion); about 70% of the images are normal, and "No finding" is one of
the 15 classes averaged, so the normal/abnormal classifier (the "2-class filter" every strong
solution added) both scores class 14 and damps boxes on normal images. CenterNet
(``centernet.py``) is anchor-free, needs no NMS, and learns where each kind of finding lies
in a few epochs (DETR, tried first, had not placed a box after the same training). Reads train.csv, ``train/`` and
``test/<image_id>.dicom`` (the ids from sample_submission.csv); boxes are in the files' own
pixels. Writes ``image_id,PredictionString`` (``<class> <confidence> <x_min> <y_min> <x_max>
<y_max>`` repeated). Validation: 10% of the images held out. Metric: mean average precision
at IoU 0.4 over the classes present, PASCAL-VOC style (the grader's is COCO's; higher is
better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F

from baselines.boxes import average_precision, merge_boxes
from baselines.centernet import box_loss, box_targets, decode_boxes, start_heatmaps
from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.segment import resnet_unet
from baselines.torchkit import autocast, fit, pick_device, setup, softmax
from baselines.vision import IMAGENET_MEAN, IMAGENET_STD, describe, image_classifier
from baselines.xray import read_xrays

METRIC = "map"
SEED = 0  # held-out images, weights of the new heads, batches
HUB_ID = "facebook/convnext-tiny-224"  # the normal/abnormal classifier: ImageNet-1k ConvNeXt-Tiny
DETECTOR_HUB_ID = "microsoft/resnet-50"  # CenterNet's encoder: ImageNet-1k ResNet-50
FINDINGS = 14  # class ids 0-13 are findings; 14 is "No finding"
NO_FINDING = 14
MERGE_IOU = 0.4  # readers' boxes of one class overlapping by more are one finding
SIZE = 512  # radiographs are squashed to SIZE x SIZE for both networks
CLASSIFIER_SHARE = 0.3  # of the training time, for the classifier (the rest: CenterNet)
CLASSIFIER_EPOCHS = 10  # passes over the training images (the time budget may stop sooner)
DETECTOR_EPOCHS = 30  # passes for CenterNet
BATCH_SIZE = 16  # images per step, both networks
LR = 1e-4  # the classifier's AdamW peak learning rate (warm-up, then cosine decay)
DETECTOR_LR = 5e-4  # CenterNet's (its decoder and heads start from scratch)
BOXES_PER_IMAGE = 20  # the most confident boxes written for each image
HOLDOUT = 0.1  # share of the images held out
SMOKE_SIZE = 32  # --smoke: a smaller side ...
SMOKE_STEPS = 25  # ... for this many classifier steps ...
SMOKE_DETECTOR_STEPS = 40  # ... and CenterNet steps ...
SMOKE_BATCH = 8  # ... of this many images
TIME_BUDGET_S = 30 * 60.0  # the whole script, data to file
THREADS = CORES  # DICOM decoding and CPU training
RESERVE_S = 20.0  # kept back for writing (prediction time is measured and kept back too)


def consensus(readings: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """One image's findings from its readers' rows: each class's overlapping boxes averaged;
    (boxes (N, 4) in the file's pixels, class ids (N,)). A normal image has none."""
    boxes, classes = [], []
    findings = readings[readings["class_id"] != NO_FINDING]
    for class_id, rows in findings.groupby("class_id"):
        corners = torch.tensor(rows[["x_min", "y_min", "x_max", "y_max"]].to_numpy(np.float32))
        merged, _ = merge_boxes(corners, MERGE_IOU)
        boxes.append(merged.numpy())
        classes += [int(class_id)] * len(merged)
    if not boxes:
        return np.zeros((0, 4), np.float32), np.zeros(0, np.int64)
    return np.concatenate(boxes), np.array(classes, np.int64)


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
    readings = pd.read_csv(public_dir / "train.csv")
    test = pd.read_csv(public_dir / "sample_submission.csv")
    ids = sorted(readings["image_id"].unique())
    size = SMOKE_SIZE if smoke else SIZE
    images, sizes = read_xrays(
        [public_dir / "train" / f"{i}.dicom" for i in ids], size, threads, budget.log
    )
    test_images, test_sizes = read_xrays([public_dir / "test" / f"{i}.dicom" for i in test["image_id"]],
                                         size, threads, budget.log)  # fmt: skip
    by_image = dict(iter(readings.groupby("image_id")))
    found = [consensus(by_image[i]) for i in ids]
    true_boxes = [b for b, _ in found]
    true_classes = [c for _, c in found]
    normal = np.array([len(c) == 0 for c in true_classes])
    budget.log(
        f"read {len(ids):,} training ({normal.mean():.0%} normal) and {len(test):,} test radiographs; device {where}"
    )

    rng = np.random.default_rng(SEED)
    order = rng.permutation(len(ids))
    n_held = max(2, round(HOLDOUT * len(ids)))
    val_rows, fit_rows = np.sort(order[:n_held]), order[n_held:]
    mean = torch.tensor(IMAGENET_MEAN, device=where).view(1, 3, 1, 1)
    std = torch.tensor(IMAGENET_STD, device=where).view(1, 3, 1, 1)

    def inputs(pixels: np.ndarray) -> torch.Tensor:
        x = torch.from_numpy(pixels).to(where).float().div_(255)[:, None].expand(-1, 3, -1, -1)
        return (x - mean) / std

    batch = SMOKE_BATCH if smoke else BATCH_SIZE
    predict_rows = len(val_rows) + len(test)
    classifier = image_classifier(HUB_ID, 2, pretrained).to(where)
    budget.log(describe(classifier, HUB_ID, pretrained))
    targets = torch.tensor(normal.astype(np.int64), device=where)

    def classifier_loss(rows: np.ndarray) -> torch.Tensor:
        picked = fit_rows[rows]
        with autocast(where):
            logits = classifier(pixel_values=inputs(images[picked])).logits
        return F.cross_entropy(logits.float(), targets[picked])

    share = Budget(budget.spent() + CLASSIFIER_SHARE * budget.left(), start=budget.start)
    fit(classifier, len(fit_rows), classifier_loss, epochs=CLASSIFIER_EPOCHS, batch_size=batch, lr=LR,
        budget=share, max_steps=SMOKE_STEPS if smoke else None, predict_rows=predict_rows,
        reserve_s=0.0, seed=SEED)  # fmt: skip

    detector = start_heatmaps(
        resnet_unet(DETECTOR_HUB_ID, 3, FINDINGS + 2, pretrained), FINDINGS
    ).to(where)
    budget.log(describe(detector, DETECTOR_HUB_ID, pretrained) + " (CenterNet)")
    scaled = [b * (size / s[[0, 1, 0, 1]]) for b, s in zip(true_boxes, sizes, strict=True)]
    wanted = [
        box_targets(b, c, FINDINGS, size, size) for b, c in zip(scaled, true_classes, strict=True)
    ]

    def detector_loss(rows: np.ndarray) -> torch.Tensor:
        picked = fit_rows[rows]
        heat, box_size, mask = (
            torch.stack([wanted[i][j] for i in picked]).to(where) for j in range(3)
        )
        with autocast(where):
            out = detector(inputs(images[picked]))
        return box_loss(out.float(), heat, box_size, mask)

    fit(detector, len(fit_rows), detector_loss, epochs=DETECTOR_EPOCHS, batch_size=batch, lr=DETECTOR_LR,
        budget=budget, max_steps=SMOKE_DETECTOR_STEPS if smoke else None, predict_rows=predict_rows,
        reserve_s=RESERVE_S, seed=SEED)  # fmt: skip

    @torch.no_grad()
    def predict(
        pixels: np.ndarray, file_sizes: np.ndarray
    ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Per image: (boxes in the file's pixels, classes, confidences), "No finding" last."""
        classifier.eval(), detector.eval()
        out = []
        for first in range(0, len(pixels), batch):
            x = inputs(pixels[first : first + batch])
            with autocast(where):
                p_normal = softmax(classifier(pixel_values=x).logits.float().cpu().numpy())[:, 1]
                maps = detector(x).float()
            for k in range(len(x)):
                corners, classes, scores = decode_boxes(maps[k], FINDINGS, BOXES_PER_IMAGE)
                w, h = file_sizes[first + k]
                corners = (corners * np.array([w, h, w, h]) / size).clip(0, [w, h, w, h])
                boxes = np.vstack([corners, [[0, 0, 1, 1]]])
                confidence = np.r_[scores * (1 - p_normal[k]), p_normal[k]]
                out.append((boxes, np.r_[classes, NO_FINDING], confidence))
        return out

    val = predict(images[val_rows], sizes[val_rows])
    truth = [(np.vstack([true_boxes[i], [[0, 0, 1, 1]]]) if normal[i] else true_boxes[i],
              np.r_[true_classes[i], NO_FINDING] if normal[i] else true_classes[i]) for i in val_rows]  # fmt: skip
    present = sorted({int(c) for _, classes in truth for c in classes})
    aps = [
        average_precision(
            [(b[c == k], s[c == k]) for b, c, s in val], [tb[tc == k] for tb, tc in truth], 0.4
        )
        for k in present
    ]
    score = float(np.mean(aps))
    metric_line(METRIC, score, f"{len(val_rows):,} held-out images, {len(present)} classes")

    strings = []
    for boxes, classes, confidence in predict(test_images, test_sizes):
        strings.append(" ".join(f"{c} {s:.5f} {x0:.1f} {y0:.1f} {x1:.1f} {y1:.1f}"
                                for (x0, y0, x1, y1), c, s in zip(boxes, classes, confidence, strict=True)))  # fmt: skip
    write_submission(test.assign(PredictionString=strings), out_path, budget)
    return score


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
