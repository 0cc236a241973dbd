"""the-icml-2013-whale-challenge-right-whale-redux: two-second hydrophone clips at 2 kHz;
``probability`` 1 (about a fifth) when a right-whale up-call is in it: a tone rising from
about 80 to 220 Hz over most of a second. All clips hold ocean noise and, now and then,
ship tones and falling sweeps that are not calls.

Public: ``train2.zip`` (``train2/<name>.aif``, names
``YYYYMMDD_HHMMSS_<sss>s<t>ms_TRAIN<i>_<label>.aif``) and ``test2.zip`` (``test2/...
_Test<i>.aif``), ``sampleSubmission.csv`` (``clip,probability`` = 0). Private: ``test.csv``
(``clip,probability`` as 0/1). As upstream: the first two of four days are train, the last
two test, and each set is numbered in time order.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from .audio import add, chirp, noise, save
from .common import Size, at_least, zip_folder

RATE = 2000  # Hz, as the competition's clips
SECONDS = 2.0
CALL_SHARE = 0.2
DAYS = ("20090328", "20090329", "20090330", "20090331")


def clip(rng: np.random.Generator, call: bool) -> np.ndarray:
    n = int(RATE * SECONDS)
    track = noise(rng, n, colour=1.2, level=rng.uniform(0.03, 0.08))
    if rng.random() < 0.3:  # a ship's tone
        f = rng.uniform(40, 400)
        track += rng.uniform(0.01, 0.04) * np.sin(2 * np.pi * f * np.arange(n) / RATE)
    if rng.random() < 0.3:  # a falling sweep: not a call
        sound = chirp(
            RATE, rng.uniform(0.4, 1.0), rng.uniform(200, 400), rng.uniform(60, 150), 0.08
        )
        add(track, sound, int(rng.integers(0, n - len(sound))))
    if call:
        seconds = rng.uniform(0.6, 1.0)
        sound = chirp(
            RATE, seconds, rng.uniform(60, 100), rng.uniform(180, 250), rng.uniform(0.06, 0.15)
        )
        add(track, sound, int(rng.integers(0, n - len(sound))))
    return track


def names(rng: np.random.Generator, days: tuple[str, str], n: int) -> list[str]:
    """Time-ordered clip stems ``YYYYMMDD_HHMMSS_<sss>s<t>ms`` over two days."""
    offsets = np.sort(rng.choice(2 * 86400 * 10, n, replace=False))  # tenths of a second
    out = []
    for tenths in offsets:
        day, rest = divmod(int(tenths), 86400 * 10)
        block, within = divmod(rest, 900 * 10)  # files are 15-minute blocks
        hhmmss = f"{block * 900 // 3600:02d}{block * 900 % 3600 // 60:02d}00"
        out.append(f"{days[day]}_{hhmmss}_{within // 10:03d}s{within % 10}ms")
    return out


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    answers = []
    for folder, days, count in (
        ("train2", DAYS[:2], size.n_train),
        ("test2", DAYS[2:], size.n_test),
    ):
        calls = at_least(rng.random(count) < CALL_SHARE, 2, rng)
        for idx, (stem, call) in enumerate(zip(names(rng, days, count), calls, strict=True)):
            if folder == "train2":
                name = f"{stem}_TRAIN{idx}_{call}.aif"
            else:
                name = f"{stem}_Test{idx}.aif"
                answers.append({"clip": name, "probability": int(call)})
            save(public / folder / name, clip(rng, bool(call)), RATE, "AIFF")
        zip_folder(public / folder, public / f"{folder}.zip", prefix=f"{folder}/")
        shutil.rmtree(public / folder)
    frame = pd.DataFrame(answers)
    frame.to_csv(private / "test.csv", index=False)
    frame.assign(probability=0).to_csv(public / "sampleSubmission.csv", index=False)
