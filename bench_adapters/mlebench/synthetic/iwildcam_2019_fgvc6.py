"""iwildcam-2019-fgvc6: camera-trap frames from sites in Southern California, each empty (0, two
thirds of them, as on Kaggle) or showing one of 13 animal classes. An animal is a body whose
size, build and coat tell its class; the site sets the scenery, and frames taken at night are
grey (infrared). Frames come in bursts of 1-3 (``seq_id``) sharing class, site and time.

Upstream splits by site (10% of the sites, upstream's ``train_test_split`` of the locations), so
the test sites are never seen in training. Public: ``train.csv`` and ``test.csv`` (Kaggle's
columns ``category_id, date_captured, file_name, frame_num, id, location, rights_holder,
seq_id, seq_num_frames, width, height``; the test table without ``category_id``),
``train_images.zip`` and ``test_images.zip`` (``<id>.jpg`` at the archive root),
``sample_submission.csv`` written with its index, as upstream does: an unnamed first column
holding each test frame's row number in Kaggle's table, then ``Id,Category`` (0). Private:
``test.csv`` (the test rows with ``category_id``) and ``answers.csv`` (``Id,Category``, the gold
submission). Rows keep Kaggle's table order within each part.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size, hex_ids, zip_folder
from .imaging import Canvas, jitter, save

CLASSES = {  # category id: (share of frames, body length, height ratio, coat colour)
    0: (0.67, 0.0, 0.0, (0, 0, 0)),
    1: (0.010, 0.34, 0.75, (150, 110, 70)),  # deer
    3: (0.030, 0.10, 0.6, (120, 100, 80)),  # squirrel
    4: (0.024, 0.07, 0.5, (110, 95, 85)),  # rodent
    8: (0.017, 0.12, 0.8, (175, 160, 140)),  # rabbit
    10: (0.006, 0.2, 0.5, (200, 90, 40)),  # fox
    11: (0.037, 0.26, 0.55, (160, 140, 110)),  # coyote
    13: (0.040, 0.18, 0.5, (95, 95, 95)),  # raccoon
    14: (0.011, 0.16, 0.45, (20, 20, 20)),  # skunk
    16: (0.033, 0.22, 0.5, (170, 130, 90)),  # bobcat
    17: (0.025, 0.15, 0.55, (230, 200, 150)),  # cat
    18: (0.019, 0.25, 0.6, (80, 60, 40)),  # dog
    19: (0.075, 0.17, 0.45, (210, 210, 200)),  # opossum
    22: (0.0017, 0.36, 0.45, (190, 150, 100)),  # mountain lion
}
HOLDERS = ["Justin Brown", "Erin Boydston", "Jeff Sikich", "Lisa Lyren", "Unknown"]
UUID_TAIL = "-11e8-a6a3-ec086b02610b"
REAL_SITES = 138


def uuids(rng: np.random.Generator, n: int) -> list[str]:
    return [f"{h[:8]}-{h[8:]}{UUID_TAIL}" for h in hex_ids(rng, n, 12)]


def bursts(rng: np.random.Generator, n: int, sites: np.ndarray) -> pd.DataFrame:
    """``n`` frames in bursts of 1-3 at the given sites, with their class and time."""
    rows: list[tuple[int, int, int, int, int, pd.Timestamp]] = []
    ids, shares = list(CLASSES), np.array([c[0] for c in CLASSES.values()])
    classes = rng.choice(ids, n, p=shares / shares.sum())  # one per burst
    classes[: min(n, 6)] = [0, 19, 13, 11, 16, 3][: min(n, 6)]  # several classes in any part
    seq = 0
    while len(rows) < n:
        length = min(int(rng.integers(1, 4)), n - len(rows))
        site = int(rng.choice(sites))
        start = pd.Timestamp("2011-06-01") + pd.Timedelta(seconds=int(rng.integers(0, 200_000_000)))
        for frame in range(length):
            rows.append(
                (seq, length, frame, site, int(classes[seq]), start + pd.Timedelta(seconds=frame))
            )
        seq += 1
    columns = ["seq", "seq_num_frames", "frame_num", "location", "category_id", "time"]
    return pd.DataFrame(rows, columns=columns)


def draw(rng: np.random.Generator, side: int, site: int, label: int, night: bool) -> Image.Image:
    height = round(side * 0.73)  # Kaggle's frames are 1024 x 747
    scene = np.random.default_rng(site)  # each site keeps its scenery
    ground = scene.uniform(60, 170, 3).tolist()
    canvas = Canvas(side, height, jitter(rng, ground, 10))
    for _ in range(3):
        x, y, r = scene.uniform(0, 1), scene.uniform(0.1, 0.6), scene.uniform(0.05, 0.2)
        canvas.ellipse(x, y, r, 2 * r, jitter(rng, scene.uniform(30, 120, 3).tolist(), 8))
    if label:
        _, length, ratio, coat = CLASSES[label]
        x, y = rng.uniform(0.25, 0.75), rng.uniform(0.5, 0.8)
        canvas.ellipse(x, y, length / 2, length * ratio / 2, jitter(rng, coat, 12))
        head_x = x + length / 2 * (1 if rng.random() < 0.5 else -1)
        canvas.ellipse(
            head_x, y - length * ratio / 3, length / 6, length / 7, jitter(rng, coat, 12)
        )
    image = canvas.finish(rng, noise=8, blur=0.5)
    return image.convert("L").convert("RGB") if night else image


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    n_sites = min(REAL_SITES, max(20, n // 1_400))
    sites = rng.choice(1_000, n_sites, replace=False)
    test_sites = sites[: math.ceil(0.1 * n_sites)]
    parts = [
        bursts(rng, size.n_train, sites[len(test_sites) :]),
        bursts(rng, size.n_test, test_sites),
    ]
    frames = pd.concat(parts, ignore_index=True)
    frames["test"] = np.repeat([False, True], [size.n_train, size.n_test])
    frames["seq"] += np.where(frames["test"], parts[0]["seq"].max() + 1, 0)
    seq_ids = uuids(rng, int(frames["seq"].max()) + 1)
    frames["id"] = uuids(rng, n)
    table = pd.DataFrame(
        {
            "category_id": frames["category_id"],
            "date_captured": frames["time"].dt.strftime("%Y-%m-%d %H:%M:%S"),
            "file_name": frames["id"] + ".jpg",
            "frame_num": frames["frame_num"],
            "id": frames["id"],
            "location": frames["location"],
            "rights_holder": np.array(HOLDERS)[frames["location"] % len(HOLDERS)],
            "seq_id": np.array(seq_ids)[frames["seq"]],
            "seq_num_frames": frames["seq_num_frames"],
            "width": 1024,
            "height": 747,
        }
    )
    order = rng.permutation(n)  # Kaggle's table order
    table, is_test = table.iloc[order].reset_index(drop=True), frames["test"].to_numpy()[order]
    train, answers = table[~is_test], table[is_test]
    train.to_csv(public / "train.csv", index=False)
    answers.drop(columns="category_id").to_csv(public / "test.csv", index=False)
    answers.to_csv(private / "test.csv", index=False)
    gold = answers[["id", "category_id"]].rename(columns={"id": "Id", "category_id": "Category"})
    gold.to_csv(private / "answers.csv", index=False)
    gold.assign(Category=0).to_csv(public / "sample_submission.csv", index=True)
    for name, part in (("train_images", train), ("test_images", answers)):
        folder = public / name
        for row in part.itertuples():
            night = not 6 <= int(row.date_captured[11:13]) < 19
            image = draw(rng, size.side, int(row.location), int(row.category_id), night)
            save(image, folder / row.file_name)
        zip_folder(folder, public / f"{name}.zip")
        shutil.rmtree(folder)
