"""freesound-audio-tagging-2019: a small CNN trained from scratch on log-mel spectrograms, 80
sigmoids (a clip may carry several labels), on the curated clips and a sample of the noisy
ones (their loss down-weighted), predicted as the mean over each test clip's 3-second crops.

    python -m baselines run --task mlebench/freesound-audio-tagging-2019
    python -m baselines.mlebench.freesound_audio_tagging_2019 --public-dir DATA/freesound-audio-tagging-2019/prepared/public --out submission.csv

Why: each label is a kind of sound with its own spectral and temporal pattern, which a CNN on
log-mel images learns (the competition's strong entries were such CNNs, trained on random
crops); the noisy set's labels are often wrong, so its clips count for less. lwlrap scores
only how a clip's labels rank among the 80, so the raw sigmoid scores are submitted.
Reads train_curated.csv/.zip, train_noisy.csv/.zip and test.zip (the clips of
sample_submission.csv); writes ``fname`` and the 80 label columns.
Validation: 10% of the curated clips held out. Metric: lwlrap (higher is better).
"""

from __future__ import annotations

import sys
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from sklearn.metrics import label_ranking_average_precision_score

from baselines.audio import log_mel, read
from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.spectrocnn import SpectrogramCNN, crop, standardise, windows
from baselines.torchkit import autocast, fit, pick_device, setup
from baselines.torchkit import predict as predict_rows

METRIC = "lwlrap"
SEED = 0  # hold-out split, noisy sample, network weights, batches, crops
N_FFT, HOP, N_MELS = 2048, 512, 128  # at 44.1 kHz: 46 ms windows, 12 ms hops
F_MIN, F_MAX = 20.0, 16_000.0  # Hz
MAX_FRAMES = 1024  # a clip's first ~12 s are kept (memory: 20k clips at full size)
CROP = 256  # frames a training crop and a prediction window hold (~3 s)
MAX_NOISY = 8_000  # noisy clips used at most (of 19,815)
NOISY_WEIGHT = 0.5  # a noisy clip's share of the loss, against 1 for a curated one
WIDTH = 32  # channels of the CNN's first block
EPOCHS = 30  # passes over the training clips (the time budget may stop sooner)
BATCH_SIZE = 64  # crops per step
CPU_BATCH = 2  # crops per step on a CPU: the first steps, timed to plan the budget, take seconds
LR = 2e-3  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.1  # share of the curated clips held out for the metric
SMOKE_ROWS = 200  # --smoke: train on this many clips ...
SMOKE_STEPS = 40  # ... for this many steps ...
SMOKE_BATCH = 16  # ... of this many crops, with a narrower CNN ...
SMOKE_WIDTH = 8
SMOKE_CROP = 64  # ... on shorter crops
TIME_BUDGET_S = 60 * 60.0  # the whole script, data to file
THREADS = CORES  # decoding and CPU training
RESERVE_S = 20.0  # kept back for writing (prediction time is measured and kept back too)


def many_hot(tags: pd.Series, classes: list[str]) -> np.ndarray:
    """(clips, classes) 0/1 from comma-separated label lists."""
    index = {name: k for k, name in enumerate(classes)}
    out = np.zeros((len(tags), len(classes)), np.float32)
    for row, text in enumerate(tags):
        for name in str(text).split(","):
            if name in index:
                out[row, index[name]] = 1
    return out


def spectrograms(archive: Path, names: list[str], threads: int) -> list[np.ndarray]:
    """Standardised log-mel images of clips in a zip (their first ``MAX_FRAMES`` frames)."""
    with zipfile.ZipFile(archive) as zf:
        members = {Path(n).name: n for n in zf.namelist()}

    def one(name: str) -> np.ndarray:
        samples, rate = read((archive, members[name]))
        samples = samples[: (MAX_FRAMES - 1) * HOP + N_FFT]
        return standardise(log_mel(samples, rate, N_FFT, HOP, N_MELS, F_MIN, F_MAX))

    with ThreadPoolExecutor(max(1, threads)) as pool:
        return list(pool.map(one, names))


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
    rng = np.random.default_rng(SEED)
    sample = pd.read_csv(public_dir / "sample_submission.csv")
    classes = list(sample.columns[1:])
    curated = pd.read_csv(public_dir / "train_curated.csv")
    noisy = pd.read_csv(public_dir / "train_noisy.csv")
    noisy = noisy.sample(min(MAX_NOISY, len(noisy)), random_state=SEED)
    if smoke:
        curated = curated.sample(min(SMOKE_ROWS // 2, len(curated)), random_state=SEED)
        noisy = noisy.head(SMOKE_ROWS - len(curated))
    budget.log(f"train: {len(curated):,} curated and {len(noisy):,} noisy clips; "
               f"{len(sample):,} test clips; device {where}")  # fmt: skip

    images = spectrograms(public_dir / "train_curated.zip", list(curated["fname"]), threads)
    images += spectrograms(public_dir / "train_noisy.zip", list(noisy["fname"]), threads)
    test_images = spectrograms(public_dir / "test.zip", list(sample["fname"]), threads)
    y = np.concatenate([many_hot(curated["labels"], classes), many_hot(noisy["labels"], classes)])
    weight = np.r_[np.ones(len(curated)), np.full(len(noisy), NOISY_WEIGHT)].astype(np.float32)
    budget.log(f"log-mel images: {N_MELS} bands, {np.mean([i.shape[1] for i in images]):.0f} "
               f"frames on average")  # fmt: skip

    held = rng.permutation(len(curated))[: max(1, round(HOLDOUT * len(curated)))]
    fit_rows = np.setdiff1d(np.arange(len(images)), held)
    frames = SMOKE_CROP if smoke else CROP
    model = SpectrogramCNN(1, len(classes), SMOKE_WIDTH if smoke else WIDTH).to(where)
    targets, weights = torch.from_numpy(y).to(where), torch.from_numpy(weight).to(where)

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        picked = fit_rows[rows]
        batch = np.stack([crop(images[i], frames, rng) for i in picked])
        with autocast(where):
            logits = model(torch.from_numpy(batch)[:, None].float().to(where))
        loss = F.binary_cross_entropy_with_logits(logits.float(), targets[picked], reduction="none")
        return (loss.sum(dim=1) * weights[picked]).mean()

    size = SMOKE_BATCH if smoke else BATCH_SIZE if where.type == "cuda" else CPU_BATCH
    n_windows = sum(len(windows(i, frames)) for i in test_images) + len(held)
    fit(model, len(fit_rows), loss_of, epochs=EPOCHS, batch_size=size, lr=LR, budget=budget,
        max_steps=SMOKE_STEPS if smoke else None, predict_rows=n_windows, reserve_s=RESERVE_S,
        seed=SEED)  # fmt: skip
    model.eval()

    def scores(clips: list[np.ndarray]) -> np.ndarray:
        """Each clip's mean logits over its consecutive crops."""
        cuts = [windows(image, frames) for image in clips]
        stacked = torch.from_numpy(np.concatenate(cuts))

        def forward(rows: np.ndarray) -> torch.Tensor:
            with autocast(where):
                return model(stacked[rows][:, None].float().to(where)).float()

        logits = predict_rows(forward, len(stacked), 4 * size)
        ends = np.cumsum([len(c) for c in cuts])
        return np.stack([part.mean(axis=0) for part in np.split(logits, ends[:-1])])

    truth = y[held]
    lwlrap = float(label_ranking_average_precision_score(
        truth, scores([images[i] for i in held]), sample_weight=truth.sum(axis=1)))  # fmt: skip
    metric_line(METRIC, lwlrap, f"{len(held):,} held-out curated clips")
    submission = pd.concat(
        [sample[["fname"]], pd.DataFrame(scores(test_images), columns=classes)], axis=1
    )
    write_submission(submission, out_path, budget)
    return lwlrap


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
