"""whale-categorization-playground: photographs of humpback whale flukes; which whale is it?
A whale's fluke has its own outline and pattern of white patches; ``new_whale`` flukes are
unidentified whales, each different.

Upstream's split, kept: every whale with two photographs or more has one in train and one in
test; a whale photographed once lands in test 10% of the time, and since it is then not in
train the answers call it ``new_whale``. About 8% of the photographs are ``new_whale``, half the
identified whales are seen once (Kaggle's shares).

Public: ``train.csv`` (``Image, Id``), ``train/<Image>``, ``test/<Image>``,
``sample_submission.csv`` (``Image, Id`` = ``new_whale w_1287fbc w_98baff9 w_7554f44
w_1eafe46``). Private: ``test.csv`` (``Image, Id``). Images are 8 hex digits and ``.jpg``, ids
``w_`` and 7 hex digits; both tables are sorted by image, as Kaggle's file.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size, hex_ids
from .imaging import Canvas, blob, jitter, save

SAMPLE_RANKING = "new_whale w_1287fbc w_98baff9 w_7554f44 w_1eafe46"
NEW_WHALE_SHARE = 0.082


def check_size(size: Size) -> None:
    if size.n_test < 5 or size.n_train < size.n_test:
        raise ValueError("whale-categorization-playground needs n_test >= 5 and n_train >= n_test")


def draw(rng: np.random.Generator, side: int, whale: int) -> Image.Image:
    look = np.random.default_rng(whale)  # each whale keeps its fluke
    height = round(side * 0.6)
    canvas = Canvas(side, height, jitter(rng, (70, 100, 130), 15))  # sea
    spread = look.uniform(0.3, 0.45)
    dark = jitter(rng, (35, 35, 40), 8)
    canvas.polygon([(0.5, 0.75), (0.5 - spread, 0.25), (0.5, 0.45), (0.5 + spread, 0.25)], dark)
    for _ in range(int(look.integers(1, 5))):
        x, y = look.uniform(0.5 - spread * 0.7, 0.5 + spread * 0.7), look.uniform(0.35, 0.5)
        canvas.polygon(
            blob(look, x, y, look.uniform(0.03, 0.07), 0.4), jitter(rng, (225, 225, 220), 8)
        )
    return canvas.finish(rng, noise=8, blur=0.5)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n_train, n_test = size.n_train, size.n_test
    paired = max(2, round(0.78 * n_test))  # whales (new_whale first) with a photo on each side
    lone_test = min(round(0.085 * n_test), n_test - paired)  # seen once, in test
    lone_train = min(round(0.276 * n_train), n_train - paired)  # seen once, in train
    extra_test, extra_train = n_test - paired - lone_test, n_train - paired - lone_train
    weight = 1 / np.arange(1, paired) ** 0.5
    n_new = round(NEW_WHALE_SHARE * (n_train + n_test))

    def extras(k: int) -> np.ndarray:  # more photographs of paired whales, new_whale first
        to_new = min(k, max(0, round(n_new * k / max(1, extra_test + extra_train))))
        rest = rng.choice(np.arange(1, paired), k - to_new, p=weight / weight.sum())
        return np.concatenate([np.zeros(to_new, np.int64), rest])

    lone = paired + np.arange(lone_test + lone_train)
    whale_test = np.concatenate([np.arange(paired), lone[:lone_test], extras(extra_test)])
    whale_train = np.concatenate([np.arange(paired), lone[lone_test:], extras(extra_train)])
    names = np.array(["new_whale"] + [f"w_{h}" for h in hex_ids(rng, len(lone) + paired - 1, 7)])
    images = [f"{h}.jpg" for h in hex_ids(rng, n_train + n_test, 8)]
    frames = []
    for folder, whales, offset in (("train", whale_train, 0), ("test", whale_test, n_train)):
        frame = pd.DataFrame({"Image": images[offset : offset + len(whales)], "Id": names[whales]})
        for image, whale in zip(frame["Image"], whales, strict=True):
            # each new_whale photograph shows a different, unknown whale
            identity = int(rng.integers(10**6, 10**9)) if whale == 0 else int(whale)
            save(draw(rng, size.side, identity), public / folder / image)
        frames.append(frame.sort_values("Image"))
    train, answers = frames
    answers.loc[~answers["Id"].isin(set(train["Id"])), "Id"] = "new_whale"
    train.to_csv(public / "train.csv", index=False)
    answers.to_csv(private / "test.csv", index=False)
    answers.assign(Id=SAMPLE_RANKING).to_csv(public / "sample_submission.csv", index=False)
