"""rsna-2022-cervical-spine-fracture-detection: an ImageNet ResNet-18 embeds each of a study's
axial CT slices (three Hounsfield windows as the colours), a bidirectional GRU reads the
embeddings from head to chest, and eight outputs a slice (C1 to C7 and the patient) are pooled
over the slices with a smooth maximum; trained end to end on the competition's weighted
binary cross-entropy.

    python -m baselines run --task mlebench/rsna-2022-cervical-spine-fracture-detection
    python -m baselines.mlebench.rsna_2022_cervical_spine_fracture_detection --public-dir DATA/rsna-2022-cervical-spine-fracture-detection/prepared/public --out submission.csv

Why: the labels are per vertebra but the slices are not labelled (boxes and segmentations
cover a few percent of the studies), so the network must find where along the neck each
vertebra lies: the vertebrae come in a fixed order from head to chest, which a recurrent pass
over the ordered slices can use, and a fracture is visible on a few slices only, which a
smooth maximum over slices keeps (multiple-instance learning). Training on the grader's own
weights (the patient 7 or 14, a vertebra 1 or 2, positives double) makes its probabilities
the ones the weighted log loss rewards. Slices are read in position order at even spacing
(``baselines.dicom``; Kaggle's files are JPEG-lossless or JPEG 2000, through pylibjpeg).
Reads public/train.csv, public/test.csv (the ``row_id`` to predict), train_images/<study>/
and test_images/<study>/; writes ``row_id,fractured``. Validation: a 15% hold-out of studies
stratified by ``patient_overall``. Metric: the weighted log loss (lower is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch

from baselines.dicom import read_volumes
from baselines.kit import (
    CORES,
    Budget,
    metric_line,
    standalone,
    stratified_holdout,
    write_submission,
)
from baselines.torchkit import autocast, fit, pick_device, predict, setup, sigmoid
from baselines.vision import Batches, describe, image_classifier

METRIC = "weighted_log_loss"
SEED = 0  # hold-out split, head weights, batches
HUB_ID = "microsoft/resnet-18"  # ImageNet-1k ResNet-18 (11.7M parameters)
TYPES = ["patient_overall", "C1", "C2", "C3", "C4", "C5", "C6", "C7"]  # the grader's order
WEIGHTS = (np.array([7, 1, 1, 1, 1, 1, 1, 1.0]), np.array([14, 2, 2, 2, 2, 2, 2, 2.0]))
WINDOWS = ((400, 1800), (40, 400), (1000, 4000))  # (centre, width) HU: bone, soft tissue, wide
DEPTH = 48  # slices read from each study, evenly spaced (Kaggle's have about 300)
IMAGE_SIZE = 256  # slices are 512 px
EMBEDDING = 128  # the CNN's output per slice
HIDDEN = 128  # GRU units each way
EPOCHS = 15  # passes over the training studies (the time budget may stop sooner)
BATCH_SIZE = 4  # studies per step (DEPTH slices each)
LR = 2e-4  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.15  # share of the studies held out for the metric
SMOKE_DEPTH = 6  # --smoke: slices a study ...
SMOKE_SIZE = 32  # ... at this size ...
SMOKE_STEPS = 20  # ... for this many steps ...
SMOKE_BATCH = 4  # ... of this many studies
SMOKE_LR = 1e-3  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 2 * 60 * 60.0  # the whole script, data to file
THREADS = CORES  # DICOM decoding and CPU training
RESERVE_S = 30.0  # kept back for writing (prediction time is measured and kept back too)
READ_CHUNK = 100  # studies decoded at a time (as float32 volumes: 1 GB at full size)


def windowed(volumes: np.ndarray) -> np.ndarray:
    """(N, D, S, S) HU -> (N * D, S, S, 3) uint8, one window per colour."""
    colours = [np.clip((volumes - (c - w / 2)) / w, 0, 1) for c, w in WINDOWS]
    stacked = (np.stack(colours, -1) * 255).astype(np.uint8)
    return stacked.reshape(-1, *stacked.shape[2:])


def read_studies(
    folders: list[Path], depth: int, size: int, threads: int, budget: Budget
) -> np.ndarray:
    """Every study's slices, windowed, as (N * depth, size, size, 3) uint8; read
    ``READ_CHUNK`` studies at a time (their float volumes would not all fit in memory)."""
    out = np.zeros((len(folders) * depth, size, size, 3), np.uint8)
    for start in range(0, len(folders), READ_CHUNK):
        chunk = folders[start : start + READ_CHUNK]
        images = windowed(read_volumes(chunk, depth, size, threads, lambda _: None))
        out[start * depth : start * depth + len(images)] = images
        budget.log(
            f"decoded {start + len(chunk):,}/{len(folders):,} studies at {depth}x{size}x{size}"
        )
    return out


class StudyNet(torch.nn.Module):
    """Slices -> CNN embeddings -> bidirectional GRU -> 8 logits a slice -> smooth maximum."""

    def __init__(self, cnn: torch.nn.Module) -> None:
        super().__init__()
        self.cnn = cnn
        self.gru = torch.nn.GRU(EMBEDDING, HIDDEN, batch_first=True, bidirectional=True)
        self.head = torch.nn.Linear(2 * HIDDEN, len(TYPES))

    def forward(self, pixels: torch.Tensor, depth: int) -> torch.Tensor:
        embedded = self.cnn(pixel_values=pixels).logits.float().view(-1, depth, EMBEDDING)
        per_slice = self.head(self.gru(embedded)[0])  # (studies, depth, 8)
        return torch.logsumexp(per_slice, dim=1) - np.log(depth)


def weighted_bce(logits: torch.Tensor, truth: torch.Tensor) -> torch.Tensor:
    """The grader's loss: per study, the weighted mean over its eight outputs."""
    negative, positive = (
        torch.tensor(w, dtype=torch.float32, device=truth.device) for w in WEIGHTS
    )
    weights = truth * positive + (1 - truth) * negative
    loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, truth, reduction="none")
    return ((loss * weights).sum(1) / weights.sum(1)).mean()


def weighted_log_loss(truth: np.ndarray, probability: np.ndarray) -> float:
    p = np.clip(probability, 1e-15, 1 - 1e-15)
    loss = -(truth * np.log(p) + (1 - truth) * np.log(1 - p))
    weights = truth * WEIGHTS[1] + (1 - truth) * WEIGHTS[0]
    return float(np.mean((loss * weights).sum(1) / weights.sum(1)))


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
    test_rows = pd.read_csv(public_dir / "test.csv")
    studies = test_rows["StudyInstanceUID"].drop_duplicates().to_numpy()
    budget.log(
        f"read train.csv: {len(train):,} studies ({train['patient_overall'].mean():.0%} with a "
        f"fracture); {len(studies):,} test studies; device {where}"
    )

    depth, size = (SMOKE_DEPTH, SMOKE_SIZE) if smoke else (DEPTH, IMAGE_SIZE)
    folders = [public_dir / "train_images" / s for s in train["StudyInstanceUID"]]
    images = read_studies(folders, depth, size, threads, budget)
    folders = [public_dir / "test_images" / s for s in studies]
    test_images = read_studies(folders, depth, size, threads, budget)
    truth = train[TYPES].to_numpy(np.float32)
    fit_rows, val_rows = stratified_holdout(train["patient_overall"].to_numpy(), HOLDOUT, SEED)

    cnn = image_classifier(HUB_ID, EMBEDDING, pretrained)
    budget.log(describe(cnn, HUB_ID, pretrained))
    model = StudyNet(cnn).to(where)
    targets = torch.tensor(truth, device=where)

    def slices_of(study_rows: np.ndarray) -> np.ndarray:
        return (study_rows[:, None] * depth + np.arange(depth)).ravel()

    batches = Batches(images, where, flips="h", seed=SEED)

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        picked = fit_rows[rows]
        with autocast(where):
            logits = model(batches(slices_of(picked), train=True), depth)
        return weighted_bce(logits.float(), targets[picked])

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
        predict_rows=len(val_rows) + len(studies),
        reserve_s=RESERVE_S,
        seed=SEED,
        log_every=20,
    )

    def probabilities(source: np.ndarray, rows: np.ndarray) -> np.ndarray:
        model.eval()
        batches = Batches(source, where)

        def forward(chunk: np.ndarray) -> torch.Tensor:
            with autocast(where):
                return model(batches(slices_of(rows[chunk])), depth)

        return sigmoid(predict(forward, len(rows), batch))

    score = weighted_log_loss(truth[val_rows], probabilities(images, val_rows))
    metric_line(METRIC, score, f"{HOLDOUT:.0%} hold-out of {len(train):,} studies")
    test_prob = probabilities(test_images, np.arange(len(studies)))
    found = pd.DataFrame(test_prob, index=studies, columns=TYPES).stack()
    by_id = pd.Series(found.to_numpy(), index=[f"{s}_{t}" for s, t in found.index])
    submission = pd.DataFrame(
        {"row_id": test_rows["row_id"], "fractured": by_id.loc[test_rows["row_id"]].to_numpy()}
    )
    write_submission(submission, out_path, budget)
    return score


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
