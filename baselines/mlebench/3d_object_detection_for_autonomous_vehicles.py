"""3d-object-detection-for-autonomous-vehicles: CenterNet on a bird's-eye view of each lidar
sweep: a U-Net (random weights) over a raster of the points around the car (points per height
slice, highest point, intensity) gives a heatmap of box centres per class and, at each
centre, its offset, height above the road, size and heading; peaks become upright 3D boxes.

    python -m baselines run --task mlebench/3d-object-detection-for-autonomous-vehicles
    python -m baselines.mlebench.3d_object_detection_for_autonomous_vehicles --public-dir DATA/3d-object-detection-for-autonomous-vehicles/prepared/public --out submission.csv

Why: the boxes stand on the road and turn only about the vertical, so a bird's-eye view loses
little (PointPillars and CenterPoint work on one), and a 2D network on it is fast; objects of
a class have nearly one size, so the heatmap finds and the regression refines: sizes and
heights are regressed against each class's mean on the training boxes (the anchors of
PointPillars), so an untrained regression already gives the typical car. The heading is
regressed as (sin 2yaw, cos 2yaw): a box turned half round is the same box, and the metric
does not tell them apart. A photograph-trained encoder has nothing to give a lidar raster, so
the U-Net starts from random weights and ``--pretrained`` is ignored. Consecutive samples of
a scene see the same objects a fraction of a second apart, so at most ``MAX_TRAIN_SAMPLES``
evenly spaced ones are used. Reads train.csv (world boxes ``x y z width length height yaw
class``), ``train_data/`` and ``test_data/`` tables (which sweep, where the lidar sits, where
the car is), ``train_lidar/`` and ``test_lidar/`` sweeps (the ids from sample_submission.csv);
no camera images or maps. Writes ``Id,PredictionString`` (``confidence x y z width length
height yaw class`` repeated, world frame; blank for none). Validation: 10% of the scenes held
out. Metric: mean over samples of the mean average precision over IoU 0.5 to 0.95 (higher is
better).
"""

from __future__ import annotations

import json
import math
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F

from baselines.centernet import draw_centres, focal_loss, peaks, start_heatmaps
from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.lidar import CHANNELS, Sweep, ego_points, iou_3d, raster, sweeps, to_ego, to_world
from baselines.segment import UNet
from baselines.torchkit import autocast, fit, pick_device, setup

METRIC = "map"
SEED = 0  # held-out scenes, weights, batches
CLASSES = ("car", "other_vehicle", "pedestrian", "bicycle", "truck", "bus", "motorcycle",
           "animal", "emergency_vehicle")  # fmt: skip
RANGE_M = 50.0  # the raster covers this far from the car in x and y
RESOLUTION = 0.4  # metres a raster cell
WIDTHS = (32, 64, 128, 256)  # the U-Net's feature maps per level
MAX_TRAIN_SAMPLES = 6000  # evenly spaced training samples used at most
EPOCHS = 20  # passes over them (the time budget may stop sooner)
BATCH_SIZE = 16  # samples per step
LR = 2e-3  # AdamW peak learning rate (warm-up, then cosine decay)
REGRESSION_WEIGHT = 0.5  # of the L1 loss on offsets, height, log sizes and heading
MAX_BOXES = 100  # at most this many boxes a sample ...
MIN_SCORE = 0.05  # ... each with a centre score above this
HOLDOUT = 0.1  # share of the scenes held out
THRESHOLDS = np.arange(0.5, 1.0, 0.05)  # the metric's IoU thresholds
SMOKE_RANGE_M = 30.0  # --smoke: only the nearest 30 m ...
SMOKE_RESOLUTION = 1.0  # ... rasterised coarsely ...
SMOKE_STEPS = 100  # ... for this many steps ...
SMOKE_BATCH = 4  # ... of this many samples
TIME_BUDGET_S = 30 * 60.0  # the whole script, data to file
THREADS = CORES  # reading and CPU training
RESERVE_S = 30.0  # kept back for writing (prediction time is measured and kept back too)
REGRESSED = 8  # offset x, offset y, z, log width, log length, log height, sin 2yaw, cos 2yaw
# (z and the log sizes less their class's mean on the training boxes)


def world_boxes(text: object) -> tuple[np.ndarray, np.ndarray]:
    """``x y z w l h yaw class`` repeated: boxes ``(N, 7)`` and class ids ``(N,)``."""
    tokens = text.split() if isinstance(text, str) else []
    rows = [tokens[i : i + 8] for i in range(0, len(tokens), 8)]
    boxes = np.array([[float(v) for v in r[:7]] for r in rows], np.float64).reshape(-1, 7)
    return boxes, np.array([CLASSES.index(r[7]) for r in rows], np.int64)


def class_means(boxes: list[np.ndarray], classes: list[np.ndarray]) -> np.ndarray:
    """Each class's mean ego-frame z and log width, length and height ``(C, 4)`` (the mean over
    every class for a class never seen)."""
    every = np.concatenate(boxes)
    values = np.column_stack([every[:, 2], np.log(every[:, 3:6])])
    labels = np.concatenate(classes)
    overall = values.mean(axis=0)
    return np.array([values[labels == c].mean(axis=0) if (labels == c).any() else overall
                     for c in range(len(CLASSES))])  # fmt: skip


def targets(boxes: np.ndarray, classes: np.ndarray, means: np.ndarray, side: int, range_m: float,
            resolution: float) -> tuple[Any, ...]:  # fmt: skip
    """A sample's heatmaps (C, S, S), regression targets (REGRESSED, S, S) and centre mask, from
    its ego-frame boxes."""
    heat = torch.zeros(len(CLASSES), side, side)
    values = torch.zeros(REGRESSED, side, side)
    mask = torch.zeros(side, side, dtype=torch.bool)
    col_f = (boxes[:, 0] + range_m) / resolution
    row_f = (boxes[:, 1] + range_m) / resolution
    inside = (col_f >= 0) & (col_f < side) & (row_f >= 0) & (row_f < side)
    for k in np.flatnonzero(inside):
        col, row = int(col_f[k]), int(row_f[k])
        sigma = max(0.5, min(boxes[k, 3], boxes[k, 4]) / resolution / 6)
        draw_centres(
            heat[classes[k]],
            torch.tensor([col_f[k] - 0.5]),
            torch.tensor([row_f[k] - 0.5]),
            torch.tensor([sigma]),
        )
        heat[classes[k], row, col] = 1.0
        z, w, length, h, yaw = boxes[k, 2:]
        shape = np.array([z, math.log(w), math.log(length), math.log(h)]) - means[classes[k]]
        values[:, row, col] = torch.tensor([col_f[k] - col, row_f[k] - row, *shape,
                                            math.sin(2 * yaw), math.cos(2 * yaw)])  # fmt: skip
        mask[row, col] = True
    return heat, values, mask


def decode(
    out: torch.Tensor, means: np.ndarray, range_m: float, resolution: float
) -> tuple[Any, ...]:
    """Ego-frame boxes ``(K, 7)``, classes and scores of one sample's output, best first."""
    heat = torch.sigmoid(out[: len(CLASSES)].float())
    scores, classes, rows, cols = peaks(heat, MAX_BOXES, MIN_SCORE)
    v = out[len(CLASSES) :, rows, cols].float().cpu().numpy()
    kinds = classes.cpu().numpy()
    x = (cols.cpu().numpy() + v[0]) * resolution - range_m
    y = (rows.cpu().numpy() + v[1]) * resolution - range_m
    shape = v[2:6].T + means[kinds]  # z, log width, log length, log height
    yaw = np.arctan2(v[6], v[7]) / 2
    boxes = (
        np.column_stack([x, y, shape[:, 0], np.exp(shape[:, 1:]), yaw])
        if len(x)
        else np.zeros((0, 7))
    )
    return boxes, kinds, scores.cpu().numpy()


def average_precision(hits: np.ndarray, n_true: int) -> float:
    """Area under the precision envelope of a ranked list of hits, recall 0 to 1."""
    if not len(hits):
        return 0.0
    tp = np.cumsum(hits)
    recall = np.r_[0.0, tp / n_true, 1.0]
    precision = np.r_[0.0, tp / np.arange(1, len(hits) + 1), 0.0]
    precision = np.maximum.accumulate(precision[::-1])[::-1]
    return float(np.sum((recall[1:] - recall[:-1]) * precision[1:]))


def sample_map(
    guess: tuple[np.ndarray, np.ndarray, np.ndarray], truth: tuple[np.ndarray, np.ndarray]
) -> float:
    """The metric of one sample: over its truth's classes and the IoU thresholds, the AP of
    that class's predictions, most confident first, each taking the true box it overlaps most
    when above the threshold and still free; NaN without truth."""
    boxes, classes, scores = guess
    true_boxes, true_classes = truth
    if not len(true_classes):
        return math.nan
    values = []
    for c in np.unique(true_classes):
        mine = np.flatnonzero(classes == c)[np.argsort(-scores[classes == c], kind="stable")]
        theirs = true_boxes[true_classes == c]
        ious = np.array([[iou_3d(boxes[i], t) for t in theirs] for i in mine]).reshape(
            len(mine), len(theirs)
        )
        for threshold in THRESHOLDS:
            taken = np.zeros(len(theirs), bool)
            hits = np.zeros(len(mine))
            for n, row in enumerate(ious):
                best = int(row.argmax())
                if row[best] > threshold and not taken[best]:
                    taken[best], hits[n] = True, 1.0
            values.append((threshold, average_precision(hits, len(theirs))))
    per_threshold = pd.DataFrame(values, columns=["t", "ap"]).groupby("t")["ap"].mean()
    return float(per_threshold.mean())


def main(
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float = TIME_BUDGET_S,
    threads: int = THREADS,
    device: str | None = None,
) -> float:
    budget = Budget(time_budget_s)
    where = pick_device(device)
    setup(SEED, threads, where)
    range_m, resolution = (SMOKE_RANGE_M, SMOKE_RESOLUTION) if smoke else (RANGE_M, RESOLUTION)
    side = round(2 * range_m / resolution)
    train = pd.read_csv(public_dir / "train.csv")
    test = pd.read_csv(public_dir / "sample_submission.csv", dtype={"PredictionString": str})
    train_sweeps = sweeps(public_dir / "train_data", public_dir / "train_lidar")
    test_sweeps = sweeps(public_dir / "test_data", public_dir / "test_lidar")
    scene_of = {
        s["token"]: s["scene_token"]
        for s in json.loads((public_dir / "train_data" / "sample.json").read_text())
    }
    train = train[train["Id"].isin(train_sweeps)].sort_values("Id").reset_index(drop=True)
    if len(train) > MAX_TRAIN_SAMPLES:
        train = train.iloc[
            np.linspace(0, len(train) - 1, MAX_TRAIN_SAMPLES).round().astype(int)
        ].reset_index(drop=True)

    def view(sweep: Sweep) -> np.ndarray:
        return raster(ego_points(sweep), range_m, resolution)

    with ThreadPoolExecutor(max(1, threads)) as pool:
        rasters = np.stack(list(pool.map(lambda i: view(train_sweeps[i]), train["Id"])))
    truths = [world_boxes(t) for t in train["PredictionString"]]
    ego = [to_ego(b, train_sweeps[i]) for (b, _), i in zip(truths, train["Id"], strict=True)]
    means = class_means(ego, [c for _, c in truths])
    wanted = [
        targets(b, c, means, side, range_m, resolution)
        for b, (_, c) in zip(ego, truths, strict=True)
    ]
    budget.log(
        f"read {len(train):,} training sweeps as {side}x{side} rasters ({resolution} m a cell); device {where}"
    )

    rng = np.random.default_rng(SEED)
    scenes = train["Id"].map(scene_of).to_numpy()
    unique = rng.permutation(sorted(set(scenes)))
    held = set(unique[: max(1, round(HOLDOUT * len(unique)))])
    val_rows = np.flatnonzero(np.isin(scenes, list(held)))
    fit_rows = np.flatnonzero(~np.isin(scenes, list(held)))

    def inputs(rows: np.ndarray, source: np.ndarray) -> torch.Tensor:
        return torch.from_numpy(source[rows]).to(where).float().div_(255)

    model = start_heatmaps(UNet(CHANNELS, len(CLASSES) + REGRESSED, WIDTHS), len(CLASSES)).to(where)
    budget.log(
        f"model: bird's-eye-view U-Net (CenterNet), {sum(p.numel() for p in model.parameters()):,} weights, random"
    )

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        picked = fit_rows[rows]
        heat, values, mask = (
            torch.stack([wanted[i][j] for i in picked]).to(where) for j in range(3)
        )
        with autocast(where):
            out = model(inputs(picked, rasters)).float()
        loss = focal_loss(out[:, : len(CLASSES)], heat)
        if mask.any():
            regressed = out[:, len(CLASSES) :].permute(0, 2, 3, 1)[mask]
            loss = loss + REGRESSION_WEIGHT * F.l1_loss(regressed, values.permute(0, 2, 3, 1)[mask])
        return loss

    batch = SMOKE_BATCH if smoke else BATCH_SIZE
    fit(model, len(fit_rows), loss_of, epochs=EPOCHS, batch_size=batch, lr=LR, budget=budget,
        max_steps=SMOKE_STEPS if smoke else None, predict_rows=len(val_rows) + len(test),
        reserve_s=RESERVE_S, seed=SEED)  # fmt: skip

    @torch.no_grad()
    def detect(
        source: np.ndarray, tokens: list[str], found: dict[str, Sweep]
    ) -> list[tuple[Any, ...]]:
        """World-frame (boxes, classes, scores) of each sample."""
        model.eval()
        out = []
        for first in range(0, len(tokens), batch):
            rows = np.arange(first, min(first + batch, len(tokens)))
            with autocast(where):
                maps = model(inputs(rows, source)).float()
            for k, row in enumerate(rows):
                boxes, classes, scores = decode(maps[k], means, range_m, resolution)
                out.append((to_world(boxes, found[tokens[row]]), classes, scores))
        return out

    val_found = detect(rasters[val_rows], list(train["Id"].iloc[val_rows]), train_sweeps)
    score = float(
        np.nanmean([sample_map(g, truths[i]) for g, i in zip(val_found, val_rows, strict=True)])
    )
    metric_line(METRIC, score, f"{len(held)} held-out scenes, {len(val_rows):,} samples")
    rasters = rasters[:0]  # the training rasters are done with: free them

    strings = []
    for first in range(0, len(test), 512):  # a chunk of sweeps at a time
        tokens = list(test["Id"].iloc[first : first + 512])
        with ThreadPoolExecutor(max(1, threads)) as pool:
            chunk = np.stack(list(pool.map(lambda i: view(test_sweeps[i]), tokens)))
        for boxes, classes, scores in detect(chunk, tokens, test_sweeps):
            strings.append(" ".join(f"{s:.4f} " + " ".join(f"{v:.3f}" for v in b) + f" {CLASSES[c]}"
                                    for b, c, s in zip(boxes, classes, scores, strict=True)))  # fmt: skip
    write_submission(test.assign(PredictionString=strings), out_path, budget)
    return score


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
