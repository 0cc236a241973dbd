"""google-research-identify-contrails-reduce-global-warming: GOES-16 infrared records with
contrails, as upstream's split of Kaggle's training set.

Each record folder holds ``band_08.npy`` ... ``band_16.npy``: brightness temperatures
(float16, kelvin) of shape ``H x W x 8``, eight frames of which the fifth is the labelled one.
A contrail is a thin straight line, colder than the sky around it in every band (most in bands
13 to 15), drifting a little from frame to frame; about 40% of records have none. Labels:
``human_individual_masks.npy`` (``H x W x 1 x R``, int32, 4 to 7 labellers, each missing a
contrail now and then) and ``human_pixel_masks.npy`` (``H x W x 1``, int32: more than half of
the labellers).

Public: ``train/<record_id>/`` (bands and both masks), ``test/<record_id>/`` (bands),
``validation/<record_id>/`` (bands and the pixel mask, as Kaggle's), ``train_metadata.json``
and ``validation_metadata.json`` (each record's projection and timestamp), and
``sample_submission.csv`` (``record_id, encoded_pixels, height, width``; ``encoded_pixels``
drawn from ``1 3 10 5`` and ``-``, as upstream's). Private: ``answers.csv`` (``record_id,
encoded_pixels, height, width``; ``-`` for no contrail). Record ids are 19-digit numbers;
the test set is as large as the validation set, as upstream's split.

``side`` is the masks' side (Kaggle's is 256); the bands are at most ``BAND_CAP`` pixels a
side, a stand-in that each band pixel covers ``side / BAND_CAP`` mask pixels of beyond it (256
pixels and eight frames of nine bands would be 176 GB over the training set).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image, ImageDraw

from rlecodec import encode

from .common import Size

BANDS = range(8, 17)
FRAMES = 8
LABELLED = 4  # n_times_before: the fifth frame is the one the masks describe
BAND_CAP = 32
COOLING = {8: 1.0, 9: 1.5, 10: 2.0, 11: 3.0, 12: 2.5, 13: 4.0, 14: 4.5, 15: 5.0, 16: 3.0}
"""Kelvin a contrail takes off each band."""
Segment = tuple[float, float, float, float]
"""A contrail: ``x0, y0, x1, y1`` in fractions of the side."""
PROJECTION = 'PROJCS["unknown",GEOGCS["unknown",DATUM["WGS_1984"]],PROJECTION["Geostationary"]]'


def check_size(size: Size) -> None:
    if size.side < 8:
        raise ValueError(f"side must be at least 8 pixels, got {size.side}")


def lines(rng: np.random.Generator) -> list[Segment]:
    """0 to 3 contrails as segments in fractions of the side (none for about 40%)."""
    count = 0 if rng.random() < 0.4 else int(rng.integers(1, 4))
    out = []
    for _ in range(count):
        x0, y0 = rng.uniform(0.05, 0.95, 2)
        angle, length = rng.uniform(0, np.pi), rng.uniform(0.4, 0.9)
        dx, dy = np.cos(angle) * length, np.sin(angle) * length
        out.append((x0 - dx / 2, y0 - dy / 2, x0 + dx / 2, y0 + dy / 2))
    return out


def raster(segments: list[Segment], side: int, shift: float = 0.0) -> np.ndarray:
    """A ``side x side`` 0/1 array with each segment drawn about 1/128 of the side wide."""
    image = Image.new("L", (side, side), 0)
    draw = ImageDraw.Draw(image)
    width = max(1, round(side / 128))
    for x0, y0, x1, y1 in segments:
        points = [(x * side + shift * side, y * side) for x, y in ((x0, y0), (x1, y1))]
        draw.line(points, fill=1, width=width)
    return np.asarray(image, dtype=np.int32)


def bands(rng: np.random.Generator, segments: list[Segment], side: int) -> dict[int, np.ndarray]:
    """Each band's ``side x side x 8`` temperatures: a smooth sky, noise, cold contrails."""
    yy, xx = np.mgrid[0:side, 0:side] / side
    sky = 250 + 15 * np.sin(rng.uniform(1, 4) * xx + rng.uniform(0, 6)) * np.cos(
        rng.uniform(1, 4) * yy
    )
    drift = rng.uniform(-0.02, 0.02)
    trails = np.stack([raster(segments, side, drift * (t - LABELLED)) for t in range(FRAMES)], -1)
    out = {}
    for band in BANDS:
        frames = sky[..., None] + (band - 12) * 3 + rng.normal(0, 0.8, (side, side, FRAMES))
        out[band] = (frames - COOLING[band] * trails).astype(np.float16)
    return out


def labels(
    rng: np.random.Generator, segments: list[Segment], side: int
) -> tuple[np.ndarray, np.ndarray]:
    """Individual masks (``side x side x 1 x R``) and their majority (``side x side x 1``)."""
    raters = int(rng.integers(4, 8))
    seen = [[s for s in segments if rng.random() < 0.85] for _ in range(raters)]
    individual = np.stack([raster(s, side) for s in seen], -1)[:, :, None, :]
    pixel = (individual.sum(-1) * 2 > raters).astype(np.int32)
    return individual.astype(np.int32), pixel


def metadata(rng: np.random.Generator, record_id: str) -> dict[str, object]:
    return {
        "row_min": float(rng.uniform(-3e6, 3e6)),
        "row_size": 2000.0,
        "col_min": float(rng.uniform(-5e6, 1e6)),
        "col_size": 2000.0,
        "timestamp": float(rng.uniform(1.55e9, 1.65e9)),
        "projection_wkt": PROJECTION,
        "record_id": record_id,
    }


def write_record(rng: np.random.Generator, folder: Path, size: Size, kind: str) -> np.ndarray:
    """One record's files (``kind``: train, validation or test); returns its pixel mask."""
    folder.mkdir(parents=True)
    segments = lines(rng)
    for band, values in bands(rng, segments, min(size.side, BAND_CAP)).items():
        np.save(folder / f"band_{band:02}.npy", values)
    individual, pixel = labels(rng, segments, size.side)
    if kind == "train":
        np.save(folder / "human_individual_masks.npy", individual)
    if kind != "test":
        np.save(folder / "human_pixel_masks.npy", pixel)
    return pixel[:, :, 0]


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + 2 * size.n_test
    numbers: set[int] = set()
    while len(numbers) < n:
        numbers.update(int(k) for k in rng.integers(10**18, 9 * 10**18, n - len(numbers)))
    ids = [str(k) for k in rng.permutation(sorted(numbers))]
    train, test, validation = (
        ids[: size.n_train],
        ids[size.n_train : size.n_train + size.n_test],
        ids[size.n_train + size.n_test :],
    )
    answers = []
    for record_id in train:
        write_record(rng, public / "train" / record_id, size, "train")
    for record_id in validation:
        write_record(rng, public / "validation" / record_id, size, "validation")
    for record_id in test:
        mask = write_record(rng, public / "test" / record_id, size, "test")
        answers.append((record_id, encode(mask, "column", empty="-"), size.side, size.side))
    for name, records in (("train_metadata.json", train), ("validation_metadata.json", validation)):
        (public / name).write_text(json.dumps([metadata(rng, r) for r in records]))
    frame = pd.DataFrame(answers, columns=["record_id", "encoded_pixels", "height", "width"])
    frame.to_csv(private / "answers.csv", index=False)
    guesses = rng.choice(["1 3 10 5", "-"], len(frame))
    frame.assign(encoded_pixels=guesses).to_csv(public / "sample_submission.csv", index=False)
