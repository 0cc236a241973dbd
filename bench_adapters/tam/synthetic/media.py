"""Synthetic audio and image tasks: tiny WAV and PNG files in the competitions' layouts."""

from __future__ import annotations

import json
import wave
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from bench_adapters.tam.synthetic.tables import _answers_gold

RATE = 16_000


def write_wav(path: Path, samples: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pcm = (np.clip(samples, -1, 1) * 32767).astype("<i2")
    with wave.open(str(path), "wb") as f:
        f.setnchannels(1)
        f.setsampwidth(2)
        f.setframerate(RATE)
        f.writeframes(pcm.tobytes())


def tones(rng: np.random.Generator, freqs: list[float], seconds: float) -> np.ndarray:
    t = np.arange(int(RATE * seconds)) / RATE
    signal = rng.normal(0, 0.05, len(t))
    for f in freqs:
        signal += 0.3 * np.sin(2 * np.pi * f * t)
    return signal


# --- audio/easy: mlsp-2013-birds ----------------------------------------------------------

SPECIES = 19


def mlsp_birds(public: Path, private: Path, rng: np.random.Generator) -> None:
    essential = public / "essential_data"
    n = 40
    folds = (np.arange(n) % 4 == 0).astype(int)  # 1 = test
    labels = [sorted(rng.choice(SPECIES, int(rng.integers(0, 3)), replace=False)) for _ in range(n)]
    names = [f"PC{k % 5 + 1}_2009{k:04d}_0000" for k in range(n)]
    for k in range(n):
        write_wav(
            essential / "src_wavs" / f"{names[k]}.wav",
            tones(rng, [600 + 150 * s for s in labels[k]], 0.25),
        )
    (essential / "rec_id2filename.txt").write_text(
        "rec_id,filename\n" + "".join(f"{k},{names[k]}\n" for k in range(n))
    )
    (essential / "CVfolds_2.txt").write_text(
        "rec_id,fold\n" + "".join(f"{k},{folds[k]}\n" for k in range(n))
    )
    lines = [f"{k},?" if folds[k] else ",".join(map(str, [k, *labels[k]])) for k in range(n)]
    (essential / "rec_labels_test_hidden.txt").write_text(
        "rec_id,[labels]\n" + "\n".join(lines) + "\n"
    )
    (essential / "species_list.txt").write_text(
        "class_id,code,species\n" + "".join(f"{s},SP{s:02d},Species {s}\n" for s in range(SPECIES))
    )
    histogram = np.abs(rng.normal(0, 0.02, (n, 100)))
    for k in range(n):
        for s in labels[k]:
            histogram[k, s * 5 : s * 5 + 5] += 0.2
    supplemental = public / "supplemental_data"
    supplemental.mkdir()
    rows = [",".join([str(k), *(f"{v:.6f}" for v in histogram[k])]) for k in range(n)]
    (supplemental / "histogram_of_segments.txt").write_text(
        "rec_id,[histogram of segment features]\n" + "\n".join(rows) + "\n"
    )
    test = [k for k in range(n) if folds[k]]
    ids = [k * 100 + s for k in test for s in range(SPECIES)]
    truth = [int(s in labels[k]) for k in test for s in range(SPECIES)]
    truth[0], truth[1] = 0, 1  # AUC needs both classes
    pd.DataFrame({"Id": ids, "Probability": truth}).to_csv(private / "test_labels.csv", index=False)
    pd.DataFrame({"Id": ids, "Probability": 0}).to_csv(
        public / "sample_submission.csv", index=False
    )


# --- audio/medium: tensorflow-speech-recognition-challenge ----------------------------------

COMMANDS = ["yes", "no", "up", "down", "left", "right", "on", "off", "stop", "go"]


def speech_commands(public: Path, private: Path, rng: np.random.Generator) -> None:
    labels = [*COMMANDS, "silence", "unknown"]
    word_of = {label: 300.0 + 120 * i for i, label in enumerate(labels)}
    for label in [*COMMANDS, "bed", "cat"]:
        for k in range(3):
            write_wav(
                public / "train" / "audio" / label / f"{k:08x}_nohash_0.wav",
                tones(rng, [word_of.get(label, 2000.0)], 0.1),
            )
    write_wav(
        public / "train" / "audio" / "_background_noise_" / "white_noise.wav",
        rng.normal(0, 0.1, RATE // 2),
    )
    truth = []
    for k in range(36):
        label = labels[k % len(labels)]
        freqs = [] if label == "silence" else [word_of[label] if label != "unknown" else 2000.0]
        name = f"clip_{k:08d}.wav"
        write_wav(public / "test" / "audio" / name, tones(rng, freqs, 0.1))
        truth.append((name, label))
    answers = pd.DataFrame(truth, columns=["fname", "label"])
    answers.to_csv(private / "test_labels.csv", index=False)
    answers.assign(label="silence").to_csv(public / "sample_submission.csv", index=False)


# --- audio/hard: Cornell Birdcall Identification ---------------------------------------------

BIRDS = ["amecro", "amerob", "bkcchi", "norcar", "rewbla", "sonspa"]


def birdcall(public: Path, private: Path, rng: np.random.Generator) -> None:
    meta = []
    for i, code in enumerate(BIRDS):
        for k in range(2):
            name = f"XC{1000 * i + k}.wav"  # the competition ships MP3; WAV here (no encoder)
            write_wav(public / "train_audio" / code / name, tones(rng, [800 + 200 * i], 0.2))
            meta.append({"ebird_code": code, "filename": name, "recordist": "synthetic",
                         "location": "nowhere", "date": "2019-06-01", "duration": 0.2})  # fmt: skip
    pd.DataFrame(meta).to_csv(public / "train.csv", index=False)
    rows, truth = [], []
    for audio in range(6):
        audio_id = f"{audio:04x}a1b2c3d4e5f6"
        site = f"site_{audio % 3 + 1}"
        windows = [None] if site == "site_3" else [5, 10, 15]
        present = [
            sorted(rng.choice(BIRDS, int(rng.integers(0, 3)), replace=False)) for _ in windows
        ]
        heard = sorted({b for p in present for b in p})
        write_wav(
            public / "test_audio" / f"{audio_id}.wav",
            tones(rng, [800 + 200 * BIRDS.index(b) for b in heard], 0.3),
        )
        for seconds, birds in zip(windows, present, strict=True):
            row_id = f"{site}_{audio_id}_{seconds if seconds is not None else ''}".rstrip("_")
            rows.append({"site": site, "row_id": row_id, "seconds": seconds, "audio_id": audio_id})
            truth.append({"row_id": row_id, "birds": " ".join(birds) or "nocall"})
    pd.DataFrame(rows).to_csv(public / "test.csv", index=False)
    answers = pd.DataFrame(truth)
    answers.to_csv(private / "test_labels.csv", index=False)
    answers.assign(birds="nocall").to_csv(public / "sample_submission.csv", index=False)


# --- image/easy: denoising-dirty-documents -----------------------------------------------------

H, W = 12, 16


def _page(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    clean = np.ones((H, W))
    for row in range(2, H - 1, 4):
        clean[row, rng.integers(1, 4) : W - rng.integers(1, 4)] = 0.1
    noisy = np.clip(clean * rng.uniform(0.6, 0.9) + rng.normal(0, 0.08, (H, W)), 0, 1)
    return clean, noisy


def _png(path: Path, pixels: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray((pixels * 255).round().astype(np.uint8), mode="L").save(path)


def denoising(public: Path, private: Path, rng: np.random.Generator) -> None:
    for k in range(1, 7):
        clean, noisy = _page(rng)
        _png(public / "train" / f"{k}.png", noisy)
        _png(public / "train_cleaned" / f"{k}.png", clean)
    ids, values = [], []
    for k in range(7, 10):
        clean, noisy = _page(rng)
        _png(public / "test" / f"{k}.png", noisy)
        stored = np.asarray(Image.fromarray((clean * 255).round().astype(np.uint8))) / 255.0
        for r in range(H):
            for c in range(W):
                ids.append(f"{k}_{r + 1}_{c + 1}")
                values.append(round(float(stored[r, c]), 6))
    pd.DataFrame({"id": ids, "value": values}).to_csv(private / "test_labels.csv", index=False)
    pd.DataFrame({"id": ids, "value": 1}).to_csv(public / "sample_submission.csv", index=False)


# --- image/medium: statoil-iceberg-classifier-challenge ---------------------------------------

SIDE = 75


def _radar(rng: np.random.Generator, iceberg: bool) -> tuple[list[float], list[float]]:
    band_1 = rng.normal(-25, 3, SIDE * SIDE)
    band_2 = rng.normal(-27, 3, SIDE * SIDE)
    blob = rng.choice(SIDE * SIDE, 60, replace=False)
    band_1[blob] += 12 if iceberg else 20
    band_2[blob] += 10 if iceberg else 4
    return band_1.round(4).tolist(), band_2.round(4).tolist()


def iceberg(public: Path, private: Path, rng: np.random.Generator) -> None:
    records = []
    for k in range(16 + 8):
        label = int(k % 2)
        band_1, band_2 = _radar(rng, bool(label))
        angle: float | str = "na" if k % 7 == 3 else round(float(rng.uniform(30, 45)), 4)
        records.append({"id": f"{k * 2654435761 % 16**8:08x}", "band_1": band_1,
                        "band_2": band_2, "inc_angle": angle, "is_iceberg": label})  # fmt: skip
    train, test = records[:16], records[16:]
    (public / "train.json").write_text(json.dumps(train))
    (public / "test.json").write_text(
        json.dumps([{k: v for k, v in r.items() if k != "is_iceberg"} for r in test])
    )
    answers = pd.DataFrame(
        {"id": [r["id"] for r in test], "is_iceberg": [r["is_iceberg"] for r in test]}
    )
    answers.to_csv(private / "test_labels.csv", index=False)
    answers.assign(is_iceberg=0.5).to_csv(public / "sample_submission.csv", index=False)


# --- image/hard: Image Matching Challenge 2024 --------------------------------------------------


def _rotation(rng: np.random.Generator) -> np.ndarray:
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    q = q * np.sign(np.diag(r))
    return q if np.linalg.det(q) > 0 else -q


def _flat(values: np.ndarray) -> str:
    return ";".join(f"{v:.9f}" for v in values.ravel())


def _scene_rows(
    public: Path, rng: np.random.Generator, split: str, dataset: str, scene: str
) -> list[dict[str, str]]:
    rows = []
    for k in range(6):
        image_path = f"{split}/{dataset}/images/{scene}_{k:05d}.png"
        _png(public / image_path, rng.uniform(0, 1, (8, 8)))
        rotation = _rotation(rng)
        centre = rng.uniform(-4, 4, 3)
        rows.append({"image_path": image_path, "dataset": dataset, "scene": scene,
                     "rotation_matrix": _flat(rotation),
                     "translation_vector": _flat(-rotation @ centre)})  # fmt: skip
    return rows


def camera_poses(public: Path, private: Path, rng: np.random.Generator) -> None:
    train = _scene_rows(public, rng, "train", "cathedral", "cathedral")
    pd.DataFrame(train).to_csv(public / "train" / "train_labels.csv", index=False)
    rows = [
        row
        for dataset, scene in (("church", "church"), ("lizard", "day"), ("lizard", "night"))
        for row in _scene_rows(public, rng, "test", dataset, scene)
    ]
    answers = pd.DataFrame(rows)
    answers.to_csv(private / "test_labels.csv", index=False)
    unposed = {"rotation_matrix": ";".join(["nan"] * 9), "translation_vector": "nan;nan;nan"}
    answers.assign(**unposed).to_csv(public / "sample_submission.csv", index=False)


POSES = ["image_path", "dataset", "scene", "rotation_matrix", "translation_vector"]
WRITERS = {
    "audio/easy": mlsp_birds,
    "audio/medium": speech_commands,
    "audio/hard": birdcall,
    "image/easy": denoising,
    "image/medium": iceberg,
    "image/hard": camera_poses,
}
GOLDS = {
    "audio/easy": _answers_gold(["Id", "Probability"]),
    "audio/medium": _answers_gold(["fname", "label"]),
    "audio/hard": _answers_gold(["row_id", "birds"]),
    "image/easy": _answers_gold(["id", "value"]),
    "image/medium": _answers_gold(["id", "is_iceberg"]),
    "image/hard": _answers_gold(POSES),
}
