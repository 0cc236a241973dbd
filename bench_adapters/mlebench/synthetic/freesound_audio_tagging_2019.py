"""freesound-audio-tagging-2019: 16-bit mono clips at 44.1 kHz, tagged with one to three of
the 80 labels; each label sounds as a tone sweeping up from a pitch of its own (the signal a
model learns) over coloured noise. Clips last 0.3 to 1 s (the real ones 0.3 to 30 s).

Public (upstream copies Kaggle's files as they are): ``train_curated.csv`` and
``train_noisy.csv`` (``fname,labels``, labels comma-separated; about 30% of the noisy set's
labels are wrong, as its name says), ``train_curated.zip``, ``train_noisy.zip`` and
``test.zip`` (the ``<8 hex>.wav`` files at the archive's root) and ``sample_submission.csv``
(``fname`` and the 80 label columns, all 0). Private: ``test.csv``, the test clips' labels
many-hot in the same columns (upstream builds it from the post-competition release). The noisy
set is about four times the curated one (19,815 and 4,970 clips at full size).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from ..graders.freesound_audio_tagging_2019 import CLASSES
from .audio import add, chirp, noise, save
from .common import Size, hex_ids, zip_folder

RATE = 44_100
NOISY_PER_CURATED = 19_815 / 4_970
WRONG_LABEL_SHARE = 0.3


def pitch(label: int) -> float:
    """The tone (Hz) of label ``label``: 150 Hz up to about 7 kHz, 5% apart."""
    return 150.0 * 1.05**label


def clip(rng: np.random.Generator, labels: list[int]) -> np.ndarray:
    n = RATE // 100 * int(rng.integers(30, 101))  # whole hundredths of a second: quick FFTs
    track = noise(rng, n, colour=rng.uniform(0.5, 1.5), level=rng.uniform(0.01, 0.04))
    for label in labels:
        seconds = rng.uniform(0.15, 0.25)
        f0 = pitch(label)
        sound = chirp(RATE, seconds, f0, f0 * 1.04, rng.uniform(0.1, 0.3))
        add(track, sound, int(rng.integers(0, max(1, n - len(sound)))))
    return track


def draw_labels(rng: np.random.Generator, n: int) -> list[list[int]]:
    """One label a clip, a second for about 15%, a third for about 4% (1.2 on average)."""
    counts = 1 + (rng.random(n) < 0.15) + (rng.random(n) < 0.04)
    return [sorted(rng.choice(len(CLASSES), k, replace=False).tolist()) for k in counts]


def write_set(
    folder: Path, names: np.ndarray, labels: list[list[int]], rng: np.random.Generator
) -> None:
    for name, tags in zip(names, labels, strict=True):
        save(folder / name, clip(rng, tags), RATE, "WAV")


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n_noisy = max(1, round(size.n_train * NOISY_PER_CURATED))
    total = size.n_train + n_noisy + size.n_test
    names = np.array([f"{h}.wav" for h in hex_ids(rng, total, 8)])
    curated, noisy = names[: size.n_train], names[size.n_train : size.n_train + n_noisy]
    test = np.sort(names[size.n_train + n_noisy :])
    for stem, files in (("train_curated", curated), ("train_noisy", noisy)):
        heard = draw_labels(rng, len(files))
        written = heard
        if stem == "train_noisy":
            wrong = rng.random(len(files)) < WRONG_LABEL_SHARE
            written = [
                draw_labels(rng, 1)[0] if w else h for w, h in zip(wrong, heard, strict=True)
            ]
        write_set(public / stem, files, heard, rng)
        zip_folder(public / stem, public / f"{stem}.zip")
        shutil.rmtree(public / stem)
        tags = [",".join(CLASSES[k] for k in labels) for labels in written]
        pd.DataFrame({"fname": np.sort(files), "labels": np.array(tags)[np.argsort(files)]}).to_csv(
            public / f"{stem}.csv", index=False
        )
    heard = draw_labels(rng, len(test))
    write_set(public / "test", test, heard, rng)
    zip_folder(public / "test", public / "test.zip")
    shutil.rmtree(public / "test")
    many_hot = np.zeros((len(test), len(CLASSES)), dtype=np.int64)
    for row, labels in enumerate(heard):
        many_hot[row, labels] = 1
    answers = pd.concat(
        [pd.DataFrame({"fname": test}), pd.DataFrame(many_hot, columns=CLASSES)], axis=1
    )
    answers.to_csv(private / "test.csv", index=False)
    answers.assign(**dict.fromkeys(CLASSES, 0)).to_csv(
        public / "sample_submission.csv", index=False
    )
