"""hotel-id-2021-fgvc8: photographs of hotel rooms; which hotel is it? A hotel's rooms share a
wall colour, a bed cover and where the window is; a chain shares the floor. About 12 photographs
a hotel, in 88 chains (chain 0: none), as on Kaggle.

Public: ``train.csv`` (``image, chain, hotel_id, timestamp``), ``train_images/<chain>/<image>``,
``test_images/<image>``, ``sample_submission.csv`` (``image, hotel_id`` = ``36363 53586 18807
64314 60181``, upstream's constant ranking). Private: ``test.csv`` (the train columns). Images
are 16 hex digits and ``.jpg``; rows are in the shuffled order of upstream's split (10% test).
There is no public test table.
"""

from __future__ import annotations

import colorsys
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size, hex_ids, split
from .imaging import Canvas, jitter, save

SAMPLE_RANKING = "36363 53586 18807 64314 60181"
CHAINS = 88
IMAGES_PER_HOTEL = 12.5


def colour(hue: float, saturation: float, value: float) -> tuple[float, float, float]:
    r, g, b = colorsys.hsv_to_rgb(hue, saturation, value)
    return 255 * r, 255 * g, 255 * b


def draw(rng: np.random.Generator, side: int, hotel: int, chain: int) -> Image.Image:
    look = np.random.default_rng(hotel)  # each hotel keeps its decoration
    wall = colour(look.uniform(), 0.35, 0.85)
    cover = colour(look.uniform(), 0.7, 0.7)
    window_x = look.uniform(0.15, 0.85)
    height = round(side * 0.75)
    canvas = Canvas(side, height, jitter(rng, wall, 10))
    floor = colour((chain % 12) / 12, 0.5, 0.45)
    canvas.rectangle(0, 0.7, 1, 1, jitter(rng, floor, 8))
    canvas.rectangle(window_x - 0.1, 0.12, window_x + 0.1, 0.45, jitter(rng, (200, 225, 245), 10))
    shift = rng.uniform(-0.1, 0.1)  # another angle on the same room
    canvas.rectangle(0.2 + shift, 0.5, 0.8 + shift, 0.8, jitter(rng, cover, 10))
    canvas.rectangle(0.2 + shift, 0.45, 0.8 + shift, 0.52, jitter(rng, (245, 245, 240), 5))
    return canvas.finish(rng, noise=6, blur=0.4)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    n_hotels = max(4, round(n / IMAGES_PER_HOTEL))
    hotel_ids = rng.choice(np.arange(1, 100_000), n_hotels, replace=False)
    chain_of = np.where(rng.random(n_hotels) < 0.2, 0, rng.integers(1, CHAINS, n_hotels))
    hotel = np.concatenate([np.arange(n_hotels), rng.integers(0, n_hotels, n - n_hotels)])
    times = pd.Timestamp("2016-01-01") + pd.to_timedelta(rng.integers(0, 150_000_000, n), unit="s")
    frame = pd.DataFrame(
        {
            "image": [f"{h}.jpg" for h in hex_ids(rng, n, 16)],
            "chain": chain_of[hotel],
            "hotel_id": hotel_ids[hotel],
            "timestamp": times.strftime("%Y-%m-%d %H:%M:%S"),
        }
    )
    train_rows, test_rows = split(rng, n, size.n_test)
    chains, names = frame["chain"].to_numpy(), frame["image"].to_numpy()
    for row in train_rows:  # by chain, as upstream copies them
        image = draw(rng, size.side, int(hotel[row]), int(chains[row]))
        save(image, public / "train_images" / str(chains[row]) / names[row])
    for row in test_rows:  # all in one folder: the chain would give a hint
        image = draw(rng, size.side, int(hotel[row]), int(chains[row]))
        save(image, public / "test_images" / names[row])
    frame.iloc[train_rows].to_csv(public / "train.csv", index=False)
    answers = frame.iloc[test_rows]
    answers.to_csv(private / "test.csv", index=False)
    answers[["image"]].assign(hotel_id=SAMPLE_RANKING).to_csv(
        public / "sample_submission.csv", index=False
    )
