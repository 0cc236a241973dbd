"""uw-madison-gi-tract-image-segmentation: abdominal MRI scans with the stomach and the large
and small bowel outlined, slice by slice, as upstream's split of Kaggle's 85 cases.

A case is scanned on 1 to 6 days; a day is a stack of slices (144, some 80, at Kaggle's 266
pixels). Each organ is an ellipsoid through part of the stack, brighter than the body around
it (the stomach most, the small bowel least), so a slice's organ masks are its ellipses.
Upstream's split: a tenth of the cases are test cases, and every day after the fourth of a
training case moves to the test set too.

Public: ``train/<case>/<case>_<day>/scans/slice_<k>_<width>_<height>_<mm>_<mm>.png`` (16-bit
greyscale), the same under ``test/``; ``train.csv`` (``id, class, segmentation``, blank for
no organ), ``test.csv`` (``id, class``) and ``sample_submission.csv`` (``id, class,
predicted`` = ``1 1 5 2``). Private: ``test.csv`` (``id, class, predicted, image_width,
image_height``, the sizes as floats, as upstream's ``.loc`` leaves them). Ids are
``case<N>_day<M>_slice_<kkkk>``, three rows each (large_bowel, small_bowel, stomach), cases in
a shuffled order, days and slices in order. Masks are encoded down each column, then across
(``rlecodec``).

``side`` scales everything to Kaggle's 266: the slice sizes (266 x 266, 360 x 310, 276 x 276,
234 x 234) and the number of slices a day.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from rlecodec import encode

from .common import Size

CLASSES = ("large_bowel", "small_bowel", "stomach")
BRIGHTNESS = {"large_bowel": 9000, "small_bowel": 6000, "stomach": 14000}
SHAPES = [((266, 266), "1.50"), ((360, 310), "1.50"), ((276, 276), "1.63"), ((234, 234), "1.50")]
"""Kaggle's (width, height) slice sizes and pixel spacings (mm)."""
REAL_SIDE = 266
DAYS = np.array([1, 2, 3, 4, 5, 6])
DAY_SHARES = np.array([0.1, 0.15, 0.3, 0.3, 0.1, 0.05])


@dataclass(frozen=True)
class CaseDay:
    case: str
    day: str
    width: int
    height: int
    spacing: str
    slices: int


def check_size(size: Size) -> None:
    if size.side < 16:
        raise ValueError(f"side must be at least 16 pixels, got {size.side}")


def case_days(rng: np.random.Generator, size: Size) -> tuple[list[CaseDay], set[str]]:
    """Every case-day, cases shuffled, and the test cases."""
    n = size.n_train + size.n_test
    cases = [f"case{k}" for k in rng.choice(np.arange(1, 160), n, replace=False)]
    test_cases = set(rng.choice(cases, size.n_test, replace=False))
    counts = rng.choice(DAYS, n, p=DAY_SHARES)
    train_positions = [k for k, case in enumerate(cases) if case not in test_cases]
    if counts[train_positions].max() <= 4:  # a training case with a fifth day: moved to test
        counts[train_positions[0]] = 5
    out = []
    for case, count in zip(cases, counts, strict=True):
        (width, height), spacing = SHAPES[rng.choice(len(SHAPES), p=[0.7, 0.15, 0.1, 0.05])]
        scale = size.side / REAL_SIDE
        slices = max(6, round((144 if rng.random() < 0.9 else 80) * scale))
        for day in np.sort(rng.choice(np.arange(0, 40), count, replace=False)):
            out.append(CaseDay(case, f"day{day}", max(8, round(width * scale)),
                               max(8, round(height * scale)), spacing, slices))  # fmt: skip
    return out, test_cases


def organs(rng: np.random.Generator, n_slices: int) -> dict[str, np.ndarray]:
    """Each organ's ellipsoid: centre x, y (fractions), first and last slice, radii x, y."""
    where = {"large_bowel": (0.4, 0.6, 0.14), "small_bowel": (0.55, 0.6, 0.12),
             "stomach": (0.65, 0.35, 0.1)}  # fmt: skip
    out = {}
    for organ, (cx, cy, radius) in where.items():
        first = rng.uniform(0.1, 0.5) * n_slices
        last = first + rng.uniform(0.25, 0.5) * n_slices
        out[organ] = np.array([cx + rng.uniform(-0.05, 0.05), cy + rng.uniform(-0.05, 0.05),
                               first, last, *(radius * rng.uniform(0.6, 1.0, 2))])  # fmt: skip
    return out


def organ_mask(ellipsoid: np.ndarray, k: int, width: int, height: int) -> np.ndarray:
    """The organ's cross-section on slice ``k``: an ellipse shrinking to its ends."""
    cx, cy, first, last, rx, ry = ellipsoid
    middle, half = (first + last) / 2, (last - first) / 2
    reach = 1 - ((k - middle) / half) ** 2
    if reach <= 0:
        return np.zeros((height, width), dtype=bool)
    yy, xx = np.mgrid[0:height, 0:width]
    scale = np.sqrt(reach)
    return ((xx / width - cx) / (rx * scale)) ** 2 + ((yy / height - cy) / (ry * scale)) ** 2 < 1


def scan(rng: np.random.Generator, masks: dict[str, np.ndarray]) -> np.ndarray:
    """A 16-bit slice: a body oval, the organs brighter inside it, noise."""
    height, width = next(iter(masks.values())).shape
    yy, xx = np.mgrid[0:height, 0:width]
    body = ((xx / width - 0.5) / 0.45) ** 2 + ((yy / height - 0.5) / 0.4) ** 2 < 1
    pixels = np.where(body, 3000.0, 200.0) + rng.normal(0, 400, (height, width))
    for organ in CLASSES:
        pixels[masks[organ]] = BRIGHTNESS[organ] + rng.normal(0, 600, int(masks[organ].sum()))
    return np.clip(pixels, 0, 65535).astype(np.uint16)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    days, test_cases = case_days(rng, size)
    rows = []
    seen_days: dict[str, int] = {}
    for day in days:
        seen_days[day.case] = seen_days.get(day.case, 0) + 1
        is_test = day.case in test_cases or seen_days[day.case] > 4
        folder = public / ("test" if is_test else "train") / day.case / f"{day.case}_{day.day}"
        (folder / "scans").mkdir(parents=True)
        shapes = organs(rng, day.slices)
        for k in range(1, day.slices + 1):
            masks = {o: organ_mask(shapes[o], k, day.width, day.height) for o in CLASSES}
            name = f"slice_{k:04}_{day.width}_{day.height}_{day.spacing}_{day.spacing}.png"
            Image.fromarray(scan(rng, masks)).save(folder / "scans" / name)
            slice_id = f"{day.case}_{day.day}_slice_{k:04}"
            for organ in CLASSES:
                rows.append((slice_id, organ, encode(masks[organ]), is_test,
                             float(day.width), float(day.height)))  # fmt: skip
    frame = pd.DataFrame(
        rows, columns=["id", "class", "predicted", "test", "image_width", "image_height"]
    )
    frame["predicted"] = frame["predicted"].replace("", np.nan)
    test, train = frame[frame["test"]], frame[~frame["test"]]
    train[["id", "class", "predicted"]].rename(columns={"predicted": "segmentation"}).to_csv(
        public / "train.csv", index=False, na_rep=""
    )
    answers = test[["id", "class", "predicted", "image_width", "image_height"]]
    answers.to_csv(private / "test.csv", index=False, na_rep="")
    answers[["id", "class"]].to_csv(public / "test.csv", index=False)
    answers[["id", "class"]].assign(predicted="1 1 5 2").to_csv(
        public / "sample_submission.csv", index=False
    )
