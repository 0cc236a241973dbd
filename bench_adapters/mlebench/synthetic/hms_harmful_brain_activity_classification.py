"""hms-harmful-brain-activity-classification: EEG recordings (parquet), their spectrograms, and
experts' votes over six kinds of activity (seizure, LPD, GPD, LRDA, GRDA, other).

Each EEG shows its kind, which is the signal: a seizure as large fast rhythmic spikes on every
channel, LPD as periodic sharp discharges on the left channels, GPD as periodic discharges
everywhere, LRDA as slow rhythmic waves on the left, GRDA as slow rhythmic waves everywhere,
"other" as background alone; the spectrograms show the same in the power of their four regions
(``LL``, ``RL``, ``LP``, ``RP``, 100 frequencies from 0.59 to 19.92 Hz). An EEG has one to
about twenty labelled windows (rows, about 6 on average as Kaggle's), all with the EEG's votes:
one to 28 experts, most voting for its kind, others scattered (Kaggle's windows of one EEG
mostly share their votes; here every one does). Recordings are 20 channels (``Fp1`` ... ``O2``
and ``EKG``, float32, 200 Hz) of ``side`` samples (Kaggle's are 50 s and longer: these are
capped), spectrograms 10 rows (30 at full size) of 2 s; the windows' offsets are Kaggle-like
even seconds, which may point past a capped recording.

Public: ``train.csv`` (Kaggle's 15 columns), ``test.csv`` (``spectrogram_id, eeg_id,
patient_id``), ``sample_submission.csv`` (``eeg_id`` and the six ``*_vote`` columns at 1/6),
``train_eegs/``, ``test_eegs/`` (``<eeg_id>.parquet``), ``train_spectrograms/``,
``test_spectrograms/`` (``<spectrogram_id>.parquet``), ``example_figures/``. Private:
``test.csv`` (the 15 columns) and ``gold_submission.csv`` (each row's votes over its total).
The split is by spectrogram (about one and a half EEGs each), 90/10, as upstream's; rows are
in Kaggle's order (by EEG, then window).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size

KINDS = ["Seizure", "LPD", "GPD", "LRDA", "GRDA", "Other"]
TARGETS = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"]
SHARES = [0.196, 0.139, 0.156, 0.156, 0.177, 0.176]
LEFT = ["Fp1", "F3", "C3", "P3", "F7", "T3", "T5", "O1"]
RIGHT = ["Fp2", "F4", "C4", "P4", "F8", "T4", "T6", "O2"]
CHANNELS = [*LEFT, "Fz", "Cz", "Pz", *RIGHT, "EKG"]
REGIONS = ["LL", "RL", "LP", "RP"]
FREQUENCIES = np.round(np.linspace(0.59, 19.92, 100), 2)
RATE = 200
COLUMNS = [
    "eeg_id", "eeg_sub_id", "eeg_label_offset_seconds", "spectrogram_id", "spectrogram_sub_id",
    "spectrogram_label_offset_seconds", "label_id", "patient_id", "expert_consensus", *TARGETS,
]  # fmt: skip


def check_size(size: Size) -> None:
    if size.side < 100:
        raise ValueError(f"EEG recordings need at least 100 samples (side), got {size.side}")


def votes(rng: np.random.Generator, kind: int) -> np.ndarray:
    """Expert votes: most for ``kind``, the rest scattered (the consensus stays ``kind``)."""
    experts = int(rng.choice([1, 2, 3, 3, 3, 5, 8, 12, 16, 28]))
    counts = np.zeros(6, np.int64)
    counts[kind] = experts
    for _ in range(int(rng.integers(0, experts // 2 + 1))):
        counts[kind] -= 1
        counts[int(rng.integers(6))] += 1
    if counts.argmax() != kind:
        counts[kind] = counts.max() + 1
    return counts


def eeg(rng: np.random.Generator, kind: int, n: int) -> pd.DataFrame:
    """A recording of ``n`` samples showing ``kind``."""
    t = np.arange(n) / RATE
    signal = rng.normal(0, 20, (n, len(CHANNELS)))
    left = np.isin(CHANNELS, LEFT)
    everywhere = np.array([c != "EKG" for c in CHANNELS])
    spikes = (np.sin(2 * np.pi * 3 * t) > 0.9) * 150
    discharges = (np.sin(2 * np.pi * 1 * t + rng.uniform(0, 6)) > 0.97) * 120
    delta = np.sin(2 * np.pi * 1.5 * t + rng.uniform(0, 6)) * 80
    pattern, where = [
        (spikes, everywhere), (discharges, left), (discharges, everywhere),
        (delta, left), (delta, everywhere), (np.zeros(n), everywhere),
    ][kind]  # fmt: skip
    signal[:, where] += pattern[:, None]
    signal[:, -1] += (np.sin(2 * np.pi * 1.2 * t) > 0.95) * 300  # the heartbeat
    return pd.DataFrame(signal.astype(np.float32), columns=CHANNELS)


def spectrogram(rng: np.random.Generator, kind: int, rows: int) -> pd.DataFrame:
    """Power per region and frequency, every 2 s."""
    base = 1.0 / (1 + FREQUENCIES)  # pink background
    power = rng.gamma(4.0, 0.25, (rows, len(REGIONS), len(FREQUENCIES))) * base
    low, fast = FREQUENCIES < 3, (FREQUENCIES > 2) & (FREQUENCIES < 8)
    left = [0, 2]
    every = [0, 1, 2, 3]
    boost = {0: (every, fast, 6.0), 1: (left, low, 3.0), 2: (every, low, 3.0),
             3: (left, low, 5.0), 4: (every, low, 5.0)}.get(kind)  # fmt: skip
    if boost is not None:
        regions, band, factor = boost
        power[:, regions, :] *= np.where(band, factor, 1.0)
    table = pd.DataFrame(
        power.reshape(rows, -1).astype(np.float32),
        columns=[f"{r}_{f:.2f}" for r in REGIONS for f in FREQUENCIES],
    )
    table.insert(0, "time", np.arange(1, 2 * rows, 2))
    return table


def groups(rng: np.random.Generator, n_rows: int) -> list[tuple[int, list[int]]]:
    """Spectrograms as (kind of each EEG, rows of each EEG) until ``n_rows`` rows, the last
    EEG cut to fit."""
    out: list[tuple[int, list[int]]] = []
    total = 0
    while total < n_rows:
        eegs = []
        for _ in range(1 + int(rng.random() < 0.5)):
            rows = min(int(rng.geometric(0.16)), n_rows - total)  # about 6 on average
            if rows > 0:
                eegs.append(rows)
                total += rows
        out.append((int(rng.choice(6, p=SHARES)), eegs))
    return out


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    spectrogram_rows = 10 if size.side < 1000 else 30
    ids = rng.choice(
        np.arange(10_000, 4_294_967_295, 997), 4 * (size.n_train + size.n_test), replace=False
    )
    next_id = iter(ids.tolist())
    rows, files = [], []
    n_train_rows = 0
    for split_name, n_rows in (("train", size.n_train), ("test", size.n_test)):
        for kind, eegs in groups(rng, n_rows):
            spectrogram_id, patient = next(next_id) // 2, int(rng.integers(10_000, 66_000))
            files.append(
                (
                    split_name,
                    "spectrograms",
                    spectrogram_id,
                    spectrogram(rng, kind, spectrogram_rows),
                )
            )
            offset = 0
            for count in eegs:
                eeg_id = next(next_id)
                files.append((split_name, "eegs", eeg_id, eeg(rng, kind, size.side)))
                counts = votes(rng, kind)
                for sub in range(count):
                    rows.append(
                        [eeg_id, sub, 2 * sub, spectrogram_id, offset + sub, 2 * (offset + sub),
                         next(next_id), patient, KINDS[kind], *counts]
                    )  # fmt: skip
                offset += count
        if split_name == "train":
            n_train_rows = len(rows)
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame["split"] = ["train"] * n_train_rows + ["test"] * (len(frame) - n_train_rows)
    frame = frame.sort_values(["eeg_id", "eeg_sub_id"], kind="stable")  # Kaggle's order
    train, test = frame[frame["split"] == "train"], frame[frame["split"] == "test"]
    train[COLUMNS].to_csv(public / "train.csv", index=False)
    test[COLUMNS].to_csv(private / "test.csv", index=False)
    test[["spectrogram_id", "eeg_id", "patient_id"]].to_csv(public / "test.csv", index=False)
    gold = test[["eeg_id", *TARGETS]].copy()
    gold[TARGETS] = gold[TARGETS].div(gold[TARGETS].sum(axis=1), axis=0)
    gold.to_csv(private / "gold_submission.csv", index=False)
    gold.assign(**{t: 1 / len(TARGETS) for t in TARGETS}).to_csv(
        public / "sample_submission.csv", index=False
    )
    for split_name, kind_name, file_id, table in files:
        folder = public / f"{split_name}_{kind_name}"
        folder.mkdir(exist_ok=True)
        table.to_parquet(folder / f"{file_id}.parquet", index=False)
    figures = public / "example_figures"
    figures.mkdir()
    for k, name in enumerate(KINDS):
        trace = eeg(np.random.default_rng(k), k, 400)["Fp1"].to_numpy()
        image = np.full((60, 200), 255, np.uint8)
        ys = np.clip(30 - trace[::2] / 8, 0, 59).astype(int)
        image[ys, np.arange(200)] = 0
        Image.fromarray(image).save(figures / f"{name}.png")
