"""multi-modal-gesture-recognition: a small CNN trained from scratch on each session's log-mel
spectrogram, scoring every video frame as one of the 20 gestures or rest; the sequence is
read off the smoothed frame labels.

    python -m baselines run --task mlebench/multi-modal-gesture-recognition
    python -m baselines.mlebench.multi_modal_gesture_recognition --public-dir DATA/multi-modal-gesture-recognition/prepared/public --out submission.csv

Why: the performer says each gesture's Italian name while making it, so the audio track both
finds the gestures in time and tells them apart (the challenge's best entries leaned on the
audio); a per-frame classifier over a log-mel image with one column per video frame (20 a
second) learns both at once from the training sessions' labelled spans (``Labels``: name, first
and last frame, in ``SampleNNNNN_data.mat``). A session's sequence is then the runs of one
gesture among the frames' labels (median-filtered, runs shorter than ``MIN_RUN`` frames
dropped). For the test sessions only ``SampleNNNNN_audio.wav`` is read: their ``.mat`` files
hold the test labels (upstream's known issue #77) and are never opened. Reads
training{1,2,3}.tar.gz, training.csv, test.tar.gz and test.csv; writes ``Id,Sequence``.
Validation: 15% of the training sessions held out. Metric: the summed edit distance over the
number of true gestures (lower is better).
"""

from __future__ import annotations

import io
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import soundfile as sf
import torch
import torch.nn.functional as F
from scipy.io import loadmat
from scipy.ndimage import median_filter

from baselines.audio import log_mel
from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.spectrocnn import SpectrogramCNN, crop, standardise
from baselines.torchkit import autocast, fit, pick_device, setup

METRIC = "edit_rate"
SEED = 0  # hold-out split, network weights, batches, crops
GESTURES = ["vattene", "vieniqui", "perfetto", "furbo", "cheduepalle", "chevuoi", "daccordo",
            "seipazzo", "combinato", "freganiente", "ok", "cosatifarei", "basta", "prendere",
            "noncenepiu", "fame", "tantotempo", "buonissimo", "messidaccordo", "sonostufo"]  # fmt: skip
FPS = 20  # video frames a second: one spectrogram column each
N_MELS = 64  # mel bands
F_MIN = 50.0  # Hz (the top band ends at half the sample rate)
CROP = 400  # frames a training crop holds (20 s)
MEDIAN = 5  # frames in the median filter over the predicted labels
MIN_RUN = 4  # frames a gesture must last to count
WIDTH = 32  # channels of the CNN's first block
EPOCHS = 60  # passes over the training sessions, one crop each (the time budget may stop sooner)
BATCH_SIZE = 16  # crops per step
CPU_BATCH = 2  # crops per step on a CPU: the first steps, timed to plan the budget, take seconds
LR = 3e-3  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.15  # share of the training sessions held out for the metric
SMOKE_STEPS = 50  # --smoke: this many steps ...
SMOKE_BATCH = 4  # ... of this many crops, with a narrower CNN ...
SMOKE_WIDTH = 8
SMOKE_CROP = 128  # ... on shorter crops
TIME_BUDGET_S = 30 * 60.0  # the whole script, data to file
THREADS = CORES  # CPU training
RESERVE_S = 20.0  # kept back for prediction and writing


def sessions(archive: Path, wanted: set[str], labelled: bool) -> dict[str, dict[str, Any]]:
    """``SampleNNNNN`` -> its audio (samples, rate) and, for training sessions, its gesture
    spans ((number, first frame, last frame), 1-based), for the sessions in ``wanted``."""
    out: dict[str, dict[str, Any]] = {}
    with tarfile.open(archive, "r:gz") as tar:
        for member in tar:
            name = Path(member.name).stem
            if not member.isfile() or name not in wanted:
                continue
            handle = tar.extractfile(member)
            assert handle is not None
            with zipfile.ZipFile(io.BytesIO(handle.read())) as zf:
                samples, rate = sf.read(io.BytesIO(zf.read(f"{name}_audio.wav")), dtype="float32")
                one: dict[str, Any] = {
                    "audio": (samples.reshape(len(samples), -1).mean(axis=1), rate)
                }
                if labelled:  # training sessions only: the test ones' labels are a leak
                    video = loadmat(io.BytesIO(zf.read(f"{name}_data.mat")), simplify_cells=True)
                    one["spans"] = spans(video["Video"]["Labels"])
            out[name] = one
    return out


def spans(labels: Any) -> list[tuple[int, int, int]]:
    """The ``Labels`` struct (one dict, a list of them, or empty) as (gesture number, first,
    last) frames."""
    items = [labels] if isinstance(labels, dict) else list(np.atleast_1d(labels))
    return [(GESTURES.index(str(g["Name"])) + 1, int(g["Begin"]), int(g["End"])) for g in items]


def spectrogram(samples: np.ndarray, rate: int) -> np.ndarray:
    """(N_MELS, frames) standardised log-mel image, one column per video frame."""
    hop = rate // FPS
    return standardise(log_mel(samples, rate, 2 * hop, hop, N_MELS, F_MIN, rate / 2))


def frame_labels(n: int, gesture_spans: list[tuple[int, int, int]]) -> np.ndarray:
    """0 (rest) or the gesture's number for each of ``n`` frames."""
    out = np.zeros(n, np.int64)
    for g, first, last in gesture_spans:
        out[max(0, first - 1) : last] = g
    return out


def sequence(frame_scores: np.ndarray) -> list[int]:
    """The gestures in order: runs of one label among the frames' (median-filtered) best
    labels, rest and runs shorter than ``MIN_RUN`` left out."""
    best = median_filter(frame_scores.argmax(axis=0), size=MEDIAN, mode="nearest")
    edges = np.flatnonzero(np.diff(best)) + 1
    runs = np.split(best, edges)
    found = [int(run[0]) for run in runs if run[0] != 0 and len(run) >= MIN_RUN]
    return [g for k, g in enumerate(found) if k == 0 or g != found[k - 1]]


def edit_distance(a: list[int], b: list[int]) -> int:
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, start=1):
        current = [i]
        for j, y in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


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
    train = pd.read_csv(public_dir / "training.csv", dtype={"Id": str})
    test = pd.read_csv(public_dir / "test.csv", dtype={"Id": str})
    names = [f"Sample{int(i):05d}" for i in train["Id"]]
    found: dict[str, dict[str, Any]] = {}
    for archive in sorted(public_dir.glob("training*.tar.gz")):
        found |= sessions(archive, set(names), labelled=True)
        budget.log(f"read {archive.name}: {len(found)} training sessions so far")
    test_names = [f"Sample{int(i):05d}" for i in test["Id"]]
    test_found = sessions(public_dir / "test.tar.gz", set(test_names), labelled=False)
    budget.log(f"read test.tar.gz: {len(test_found)} sessions (audio only); device {where}")

    truth = {
        n: [int(g) for g in str(seq).split()]
        for n, seq in zip(names, train["Sequence"], strict=True)
    }
    names = [n for n in names if n in found and found[n]["spans"]]
    images = [spectrogram(*found[n]["audio"]) for n in names]
    labels = [
        frame_labels(image.shape[1], found[n]["spans"])
        for n, image in zip(names, images, strict=True)
    ]
    test_images = [spectrogram(*test_found[n]["audio"]) for n in test_names]
    budget.log(f"{len(names)} labelled sessions, {sum(i.shape[1] for i in images):,} frames")

    held = rng.permutation(len(names))[: max(1, round(HOLDOUT * len(names)))]
    fit_rows = np.setdiff1d(np.arange(len(names)), held)
    frames = SMOKE_CROP if smoke else CROP
    model = SpectrogramCNN(1, len(GESTURES) + 1, SMOKE_WIDTH if smoke else WIDTH, per_frame=True)
    model = model.to(where)

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        images_in, targets = [], []
        for k in fit_rows[rows]:  # the same random crop of a session's image and labels
            stacked = np.vstack([images[k], labels[k][None].astype(np.float16)])
            cut = crop(stacked, frames, np.random.default_rng(rng.integers(2**32)))
            images_in.append(cut[:-1])
            targets.append(cut[-1].astype(np.int64))
        with autocast(where):
            logits = model(torch.from_numpy(np.stack(images_in))[:, None].float().to(where))
        return F.cross_entropy(logits.float(), torch.from_numpy(np.stack(targets)).to(where))

    size = SMOKE_BATCH if smoke else BATCH_SIZE if where.type == "cuda" else CPU_BATCH
    fit(model, len(fit_rows), loss_of, epochs=EPOCHS, batch_size=size, lr=LR, budget=budget,
        max_steps=SMOKE_STEPS if smoke else None, reserve_s=RESERVE_S, seed=SEED)  # fmt: skip
    model.eval()

    @torch.no_grad()
    def predict(image: np.ndarray) -> list[int]:
        with autocast(where):
            scores = model(torch.from_numpy(image)[None, None].float().to(where)).float()
        return sequence(scores[0].cpu().numpy())

    errors = sum(edit_distance(truth[names[k]], predict(images[k])) for k in held)
    rate = errors / max(1, sum(len(truth[names[k]]) for k in held))
    metric_line(METRIC, rate, f"{len(held)} held-out sessions")
    predicted = [" ".join(map(str, predict(image))) or " " for image in test_images]
    write_submission(pd.DataFrame({"Id": test["Id"], "Sequence": predicted}), out_path, budget)
    return float(rate)


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
