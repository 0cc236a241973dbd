"""tensorflow-speech-recognition-challenge: one-second clips of 30 spoken words at 16 kHz, plus
the six long background-noise recordings, split 90/10 as upstream splits Kaggle's train set.

A word is a pair of tones sweeping through a band of its own (its "formants"), shifted a
little by each speaker's pitch, placed anywhere in the second, over room noise: a model that
looks at the spectrogram tells the words apart. The ten command words and the ten digits are
more frequent than the ten other words, in Kaggle's proportions.

Public: ``train/audio/<word>/<speaker>_nohash_<n>.wav`` (speakers are 8 hex digits),
``train/audio/_background_noise_/<name>.wav``, ``test/audio/clip_<8 digits>.wav`` (numbered
in the split's order) and ``sample_submission.csv`` (``fname,label`` = ``silence``). Private:
``test.csv`` (``fname,label``). As upstream (and its known issue #63), the test labels are
the clips' folder names, not the 12 classes of the competition: any of the 30 words, or
``_background_noise_`` when a noise recording lands in test; none is ``silence`` or
``unknown``. Noise recordings are 5 s here (Kaggle's run about a minute).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .audio import add, chirp, noise, save
from .common import Size, hex_ids, split

RATE = 16_000
COMMANDS = ["yes", "no", "up", "down", "left", "right", "on", "off", "stop", "go"]
DIGITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
OTHERS = ["bed", "bird", "cat", "dog", "happy", "house", "marvin", "sheila", "tree", "wow"]
WORDS = COMMANDS + DIGITS + OTHERS
WEIGHTS = np.array([2360] * 20 + [1740] * 10) / (2360 * 20 + 1740 * 10)
NOISE = "_background_noise_"
NOISE_FILES = ["doing_the_dishes", "dude_miaowing", "exercise_bike", "pink_noise",
               "running_tap", "white_noise"]  # fmt: skip
NOISE_SECONDS = 5.0


def utterance(rng: np.random.Generator, word: int, pitch: float) -> np.ndarray:
    """One second: room noise and the word's two sweeps, at a random moment."""
    track = noise(rng, RATE, colour=1.0, level=rng.uniform(0.005, 0.03))
    low = 200 + 100 * word  # each word owns a band; the second sweep runs above the first
    seconds = rng.uniform(0.35, 0.6)
    start = int(rng.integers(0, RATE - int(RATE * seconds)))
    rise = 1 if word % 2 else -1
    first = chirp(RATE, seconds, pitch * low, pitch * (low + rise * 120), rng.uniform(0.2, 0.4))
    second = chirp(
        RATE, seconds, pitch * (2 * low + 900), pitch * (2 * low + 900 - rise * 200), 0.15
    )
    add(track, first + second, start)
    return track


def background(rng: np.random.Generator, k: int) -> np.ndarray:
    """A long noise recording of a colour of its own."""
    return noise(rng, int(RATE * NOISE_SECONDS), colour=k / 3, level=rng.uniform(0.05, 0.2))


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n_words = size.n_train + size.n_test - len(NOISE_FILES)
    words = rng.choice(len(WORDS), n_words, p=WEIGHTS)
    speakers = hex_ids(rng, max(1, n_words // 4), 8)
    said = rng.choice(len(speakers), n_words)
    pitch = rng.uniform(0.95, 1.05, len(speakers))
    clips: list[tuple[str, str, np.ndarray]] = []  # (label, file name, samples)
    repeats: dict[tuple[int, int], int] = {}
    for word, speaker in zip(words, said, strict=True):
        n = repeats[word, speaker] = repeats.get((word, speaker), -1) + 1
        name = f"{speakers[speaker]}_nohash_{n}.wav"
        clips.append((WORDS[word], name, utterance(rng, int(word), float(pitch[speaker]))))
    for k, name in enumerate(NOISE_FILES):
        clips.append((NOISE, f"{name}.wav", background(rng, k)))
    clips.sort(key=lambda clip: f"{clip[0]}_{clip[1]}")  # upstream's order before its split
    train_rows, test_rows = split(rng, len(clips), size.n_test)
    for k in train_rows:
        label, name, samples = clips[k]
        save(public / "train" / "audio" / label / name, samples, RATE, "WAV")
    answers = []
    for index, k in enumerate(test_rows):
        label, _, samples = clips[k]
        name = f"clip_{index:08d}.wav"
        save(public / "test" / "audio" / name, samples, RATE, "WAV")
        answers.append({"fname": name, "label": label})
    frame = pd.DataFrame(answers)
    frame.to_csv(private / "test.csv", index=False)
    frame.assign(label="silence").to_csv(public / "sample_submission.csv", index=False)


def check_size(size: Size) -> None:
    if size.n_train + size.n_test <= len(NOISE_FILES):
        raise ValueError(f"the {len(NOISE_FILES)} noise recordings leave no room for words")
