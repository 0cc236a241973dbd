"""cassava-leaf-disease-classification: photographs of one cassava leaf each (lobes radiating
from a stalk), labelled 0-4 with Kaggle's shares (mosaic disease, 3, is 61%). Each disease
marks the leaf its own way: bacterial blight (0) brown angular spots, brown streak (1) yellow
streaks along the lobes, green mottle (2) many pale dots, mosaic (3) large yellow patches;
healthy leaves (4) are plain green.

Public: ``train.csv`` (``image_id,label``), ``sample_submission.csv`` (``image_id,label`` = 4),
``label_num_to_disease_map.json``, ``train_images/<image_id>`` and ``test_images/<image_id>``
(JPEG, 4:3 landscape), and the same images as TFRecords of ``tf.train.Example``
(``image`` JPEG bytes, ``image_name``, ``target`` int64) in
``train_tfrecords/ld_train<i>-<count>.tfrec`` and ``test_tfrecords/ld_test<i>-<count>.tfrec``.
Private: ``test.csv`` (``image_id,label``). As upstream, the test set is whole TFRecord files
(2 of Kaggle's 16), and both CSVs keep the raw ``train.csv`` order (image ids as strings,
sorted); ids look like ``1000015157.jpg``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size
from .imaging import Canvas, jitter, save
from .tfrecord import example, write_tfrecord

DISEASES = {
    "0": "Cassava Bacterial Blight (CBB)",
    "1": "Cassava Brown Streak Disease (CBSD)",
    "2": "Cassava Green Mottle (CGM)",
    "3": "Cassava Mosaic Disease (CMD)",
    "4": "Healthy",
}
SHARES = [0.051, 0.102, 0.112, 0.615, 0.120]
FILES = (14, 2)
"""Kaggle's 16 TFRecord files, of which upstream's split puts 2 in the test set."""
SAMPLE_LABEL = 4


def draw(rng: np.random.Generator, side: int, label: int) -> Image.Image:
    canvas = Canvas(side, round(side * 3 / 4), jitter(rng, (95, 85, 60), 15))
    cx, cy = rng.uniform(0.45, 0.55), rng.uniform(0.6, 0.7)
    lobes = []
    for angle in np.linspace(-2.6, -0.55, int(rng.integers(5, 8))) + rng.normal(0, 0.06):
        length = rng.uniform(0.45, 0.55)
        tip = (cx + length * np.cos(angle) * 0.75, cy + length * np.sin(angle))
        lobes.append(tip)
        canvas.line([(cx, cy), tip], jitter(rng, (60, 130, 45), 12), 0.13)
    canvas.line([(cx, cy), (cx + 0.05, 0.98)], jitter(rng, (120, 60, 60), 10), 0.03)

    def on_leaf() -> tuple[float, float]:
        tip = lobes[int(rng.integers(len(lobes)))]
        t = rng.uniform(0.35, 0.9)
        return cx + t * (tip[0] - cx), cy + t * (tip[1] - cy)

    if label == 0:  # bacterial blight: dark brown angular spots
        for _ in range(rng.integers(6, 10)):
            x, y = on_leaf()
            canvas.rectangle(x - 0.035, y - 0.04, x + 0.035, y + 0.035, jitter(rng, (90, 55, 25)))
    elif label == 1:  # brown streak: yellow streaks along the lobes
        for tip in lobes:
            mid = (cx + 0.4 * (tip[0] - cx), cy + 0.4 * (tip[1] - cy))
            canvas.line([mid, tip], jitter(rng, (225, 205, 60), 12), 0.035)
    elif label == 2:  # green mottle: many pale dots
        for _ in range(rng.integers(20, 30)):
            canvas.ellipse(*on_leaf(), 0.022, 0.028, jitter(rng, (185, 215, 140), 12))
    elif label == 3:  # mosaic: large yellow patches
        for _ in range(rng.integers(4, 7)):
            canvas.ellipse(*on_leaf(), 0.07, 0.08, jitter(rng, (230, 220, 50), 12))
    return canvas.finish(rng, noise=5, blur=0.5)


def image_ids(rng: np.random.Generator, n: int) -> np.ndarray:
    numbers = 1_000_000 + 97 * rng.choice(44_000_000, n, replace=False)
    return np.array([f"{k}.jpg" for k in numbers])


def chunks(rows: np.ndarray, n_files: int) -> list[np.ndarray]:
    return [part for part in np.array_split(rows, min(n_files, len(rows))) if len(part)]


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    labels = rng.choice(5, n, p=SHARES)
    labels[:5] = np.arange(5)  # every class present, however small the fixture
    frame = pd.DataFrame({"image_id": image_ids(rng, n), "label": labels})
    order = rng.permutation(n)  # which rows land in which TFRecord file
    test_rows, train_rows = order[: size.n_test], order[size.n_test :]
    in_test = np.zeros(n, bool)
    in_test[test_rows] = True

    raw_order = np.argsort(frame["image_id"].to_numpy(), kind="stable")  # Kaggle's train.csv
    frame = frame.iloc[raw_order].reset_index(drop=True)
    position = np.empty(n, np.int64)
    position[raw_order] = np.arange(n)
    train, test = frame[~in_test[raw_order]], frame[in_test[raw_order]]
    train.to_csv(public / "train.csv", index=False)
    test.to_csv(private / "test.csv", index=False)
    test.assign(label=SAMPLE_LABEL).to_csv(public / "sample_submission.csv", index=False)
    (public / "label_num_to_disease_map.json").write_text(json.dumps(DISEASES))

    for split_name, rows, n_files in (
        ("train", train_rows, FILES[0]),
        ("test", test_rows, FILES[1]),
    ):
        images, records = public / f"{split_name}_images", public / f"{split_name}_tfrecords"
        images.mkdir()
        records.mkdir()
        for index, part in enumerate(chunks(position[rows], n_files)):
            payloads = []
            for image_id, label in frame.iloc[part].itertuples(index=False):
                path = images / image_id
                save(draw(rng, size.side, int(label)), path)
                jpeg = path.read_bytes()
                payloads.append(
                    example({"image": jpeg, "image_name": image_id.encode(), "target": int(label)})
                )
            write_tfrecord(records / f"ld_{split_name}{index:02d}-{len(part)}.tfrec", payloads)
