"""mlsp-2013-birds: ten-second field recordings at 16 kHz holding the calls of 0-3 of 19
bird species. Each species calls in its own band with its own shape (a rising, falling or
trilled sweep); wind noise and insect hiss fill every recording. The supplementary files are
derived from the audio as the competition's were: spectrograms, segments (one per call), 38
features per segment, and a 100-bin histogram of segment types per recording.

Public ``essential_data/``: ``CVfolds_2.txt`` (``rec_id,fold``: 0 train, 1 test),
``rec_id2filename.txt``, ``rec_labels_test_hidden.txt`` (``rec_id,[labels]`` header; a line
per recording: its species, nothing after the id when none, ``?`` for test recordings),
``species_list.txt`` (``class_id,code,species``), ``src_wavs/<filename>.wav``.
``supplemental_data/``: ``spectrograms/``, ``filtered_spectrograms/``,
``supervised_segmentation/`` (one BMP per recording), ``segmentation_examples/`` (some),
``segment_clusters.bmp``, ``segment_mosaic.bmp``, and ``histogram_of_segments.txt``,
``segment_features.txt``, ``segment_rectangles.txt``, each written, as upstream's filter
writes them, under the header ``rec_id,[histogram of segment features]``.
``sample_submission.csv`` (``Id,Probability`` = 0, ``Id = rec_id * 100 + species``).
Private: ``answers.csv`` (``Id,Probability`` as 0/1). Recordings are renumbered 0..N-1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from PIL import Image

from .audio import add, chirp, noise, save, spectrogram
from .common import Size

RATE = 16_000  # Hz, as the competition's recordings
SECONDS = 10.0
N_FFT, HOP = 512, 128
SPECIES = [
    ("BRCR", "Brown Creeper"), ("PAWR", "Pacific Wren"), ("PSFL", "Pacific-slope Flycatcher"),
    ("RBNU", "Red-breasted Nuthatch"), ("DEJU", "Dark-eyed Junco"), ("OSFL", "Olive-sided Flycatcher"),
    ("HETH", "Hermit Thrush"), ("CBCH", "Chestnut-backed Chickadee"), ("VATH", "Varied Thrush"),
    ("HEWA", "Hermit Warbler"), ("SWTH", "Swainson's Thrush"), ("HAFL", "Hammond's Flycatcher"),
    ("WETA", "Western Tanager"), ("BHGB", "Black-headed Grosbeak"), ("GCKI", "Golden Crowned Kinglet"),
    ("WAVI", "Warbling Vireo"), ("MGWA", "MacGillivray's Warbler"), ("STJA", "Stellar's Jay"),
    ("CONI", "Common Nighthawk"),
]  # fmt: skip
HISTOGRAM_BINS = 100
SEGMENT_FEATURES = 38


def voice(k: int) -> tuple[float, float, float, float]:
    """Species ``k``'s call: (start Hz, end Hz, seconds, vibrato Hz)."""
    low = 1500 + 330 * k
    shape = k % 3  # rising, falling, trilled
    f0, f1 = (low, low + 600) if shape == 0 else (low + 600, low) if shape == 1 else (low, low)
    return f0, f1, 0.15 + 0.02 * (k % 5), 150.0 if shape == 2 else 0.0


def recording(
    rng: np.random.Generator, species: list[int]
) -> tuple[np.ndarray, list[tuple[Any, ...]]]:
    """Audio and its calls as (species, start s, seconds, low Hz, high Hz)."""
    n = int(RATE * SECONDS)
    track = noise(rng, n, colour=1.5, level=rng.uniform(0.01, 0.03))
    track += noise(rng, n, colour=0.0, level=0.003)
    calls = []
    for k in species:
        f0, f1, seconds, vibrato = voice(k)
        for _ in range(rng.integers(2, 6)):
            start = rng.uniform(0, SECONDS - seconds)
            add(
                track,
                chirp(RATE, seconds, f0, f1, rng.uniform(0.05, 0.2), vibrato),
                int(start * RATE),
            )
            calls.append((k, start, seconds, min(f0, f1) - vibrato, max(f0, f1) + vibrato))
    return track, calls


def bmp(values: np.ndarray, path: Path) -> None:
    """A greyscale BMP, low frequencies at the bottom, as the competition's images."""
    scaled = (values - values.min()) / (np.ptp(values) + 1e-12)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray((255 * scaled[::-1]).astype(np.uint8)).save(path)


def segment_rows(
    spec: np.ndarray, calls: list[tuple[Any, ...]]
) -> list[tuple[list[int], list[float]]]:
    """Per call: its rectangle (min_x, max_x, min_y, max_y in spectrogram cells) and 38
    features of the spectrogram inside it (position, size, energy statistics)."""
    hz_per_bin, s_per_frame = RATE / N_FFT, HOP / RATE
    rows = []
    for _, start, seconds, low, high in calls:
        x0, x1 = int(start / s_per_frame), int((start + seconds) / s_per_frame)
        y0, y1 = int(low / hz_per_bin), int(np.ceil(high / hz_per_bin))
        patch = spec[y0 : y1 + 1, x0 : x1 + 1]
        profile = np.resize(patch.mean(axis=1), 16)
        shape = [x1 - x0, y1 - y0, (y0 + y1) / 2, patch.mean(), patch.std(), patch.max()]
        extra = [np.percentile(patch, q) for q in (10, 25, 50, 75, 90)]
        extra += [float(np.argmax(patch.mean(axis=1))), float(np.argmax(patch.mean(axis=0)))]
        features = [*shape, *extra, *profile, *np.resize(patch.mean(axis=0), 9)]
        rows.append(([x0, x1, y0, y1], [float(f) for f in features[:SEGMENT_FEATURES]]))
    return rows


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    essential, supplemental = public / "essential_data", public / "supplemental_data"
    is_test = np.zeros(n, bool)
    is_test[rng.choice(n, size.n_test, replace=False)] = True
    sites = ["PC1", "PC2", "PC4", "PC5", "PC7", "PC8", "PC10", "PC13"]
    filenames = [
        f"{rng.choice(sites)}_2009{rng.integers(5, 9):02d}{rng.integers(1, 29):02d}_"
        f"{rng.integers(0, 24):02d}{rng.integers(0, 60):02d}00_{k:04d}"
        for k in range(n)
    ]
    labels = []
    for _ in range(n):
        count = rng.choice([0, 1, 2, 3], p=[0.1, 0.45, 0.3, 0.15])
        labels.append(sorted(rng.choice(len(SPECIES), count, replace=False).tolist()))
    for part in (is_test, ~is_test):  # every species in both halves (AUC needs positives)
        recs = np.flatnonzero(part)
        for k in range(len(SPECIES)):
            if not any(k in labels[r] for r in recs) and len(recs):
                labels[recs[k % len(recs)]] = sorted({*labels[recs[k % len(recs)]], k})

    # Segment types: the nearest of 100 prototype (band centre, bandwidth, duration) shapes.
    codebook = rng.uniform(0, 1, (HISTOGRAM_BINS, 3))
    histograms, features, rectangles = [], [], []
    for rec in range(n):
        track, calls = recording(rng, labels[rec])
        save(essential / "src_wavs" / f"{filenames[rec]}.wav", track, RATE, "WAV")
        spec = spectrogram(track, N_FFT, HOP)
        filtered = spec - np.median(spec, axis=1, keepdims=True)
        mask = filtered > 1.0
        bmp(spec, supplemental / "spectrograms" / f"{filenames[rec]}.bmp")
        bmp(
            np.maximum(filtered, 0),
            supplemental / "filtered_spectrograms" / f"{filenames[rec]}.bmp",
        )
        bmp(mask.astype(float), supplemental / "supervised_segmentation" / f"{filenames[rec]}.bmp")
        if rec % 5 == 0:
            bmp(mask * spec, supplemental / "segmentation_examples" / f"{filenames[rec]}.bmp")
        counts = np.zeros(HISTOGRAM_BINS)
        for s, (box, feats) in enumerate(segment_rows(filtered, calls)):
            x0, x1, y0, y1 = box
            shape = np.array([(y0 + y1) / 2 / spec.shape[0], (y1 - y0) / 40, (x1 - x0) / 40])
            counts[np.argmin(((codebook - shape) ** 2).sum(axis=1))] += 1
            features.append(f"{rec},{s}," + ",".join(f"{v:.6f}" for v in feats))
            rectangles.append(f"{rec},{s}," + ",".join(map(str, box)) + ",")
        if counts.sum():
            counts /= counts.sum()
        histograms.append(f"{rec}," + ",".join(f"{v:.6f}" for v in counts))

    header = "rec_id,[histogram of segment features]\n"
    supplemental.mkdir(parents=True, exist_ok=True)
    for name, lines in (
        ("histogram_of_segments.txt", histograms),
        ("segment_features.txt", features),
        ("segment_rectangles.txt", rectangles),
    ):
        (supplemental / name).write_text(header + "".join(line + "\n" for line in lines))
    bmp(rng.random((64, 256)), supplemental / "segment_clusters.bmp")
    bmp(rng.random((128, 512)), supplemental / "segment_mosaic.bmp")

    pd.DataFrame({"rec_id": range(n), "fold": is_test.astype(int)}).to_csv(
        essential / "CVfolds_2.txt", index=False
    )
    pd.DataFrame({"rec_id": range(n), "filename": filenames}).to_csv(
        essential / "rec_id2filename.txt", index=False
    )
    lines = ["rec_id,[labels]"]
    for rec in range(n):
        shown = "?" if is_test[rec] else ",".join(map(str, labels[rec]))
        lines.append(f"{rec},{shown}" if shown else str(rec))
    (essential / "rec_labels_test_hidden.txt").write_text("\n".join(lines) + "\n")
    species = ["class_id,code,species", *(f"{k},{c},{name}" for k, (c, name) in enumerate(SPECIES))]
    (essential / "species_list.txt").write_text("\n".join(species) + "\n")

    test_recs = np.flatnonzero(is_test)
    ids = [rec * 100 + k for rec in test_recs for k in range(len(SPECIES))]
    truth = [int(k in labels[rec]) for rec in test_recs for k in range(len(SPECIES))]
    pd.DataFrame({"Id": ids, "Probability": truth}).to_csv(private / "answers.csv", index=False)
    pd.DataFrame({"Id": ids, "Probability": 0}).to_csv(
        public / "sample_submission.csv", index=False
    )
