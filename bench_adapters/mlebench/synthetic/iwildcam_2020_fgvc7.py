"""iwildcam-2020-fgvc7: camera-trap photographs in bursts (sequences of up to 3 frames) at
fixed locations, each burst labelled with one species category (ids sparse in 0-675; 0 is
"empty", about half the images, as on Kaggle). A species is an animal of its own shape, size and colour on the location's
background; empty frames show only the background. As upstream's split, no test location is
seen in training.

Public: ``iwildcam2020_train_annotations.json`` (``annotations``, ``images``, ``categories``,
``info``), ``iwildcam2020_test_information.json`` (``images``, ``categories``, ``info``),
``iwildcam2020_megadetector_results.json`` (animal boxes and confidences per image, train and
test), ``train/<id>.jpg``, ``test/<id>.jpg``, ``sample_submission.csv`` (``Id,Category``:
uniform random categories in 0-675 from ``np.random.seed(0)``, as upstream). Private:
``answers.csv`` (``Id,Category``) in annotation order. Ids are UUID-like strings; images are
16:9, ``side`` pixels wide (Kaggle's are 1920x1080 and larger).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size
from .imaging import Canvas, jitter, save

MAX_CATEGORIES = 267
"""Categories with training images on Kaggle."""
EMPTY_SHARE = 0.5
BURST = 3
IMAGES_PER_LOCATION = 400
SAMPLE_SEED = 0
INFO = {
    "year": 2020,
    "version": "1.0",
    "description": "Synthetic camera-trap images in the iWildCam 2020 layout",
    "contributor": "synthetic",
    "date_created": "2020-01-15",
}


def uuids(rng: np.random.Generator, n: int) -> list[str]:
    raw = rng.integers(0, 16, (n, 32))
    hexes = ["".join("0123456789abcdef"[d] for d in row) for row in raw]
    return [f"{h[:8]}-{h[8:12]}-11ea-{h[16:20]}-{h[20:]}" for h in hexes]


def draw(rng: np.random.Generator, side: int, background: np.ndarray, category: int) -> Image.Image:
    r, g, b = (float(c) for c in background)
    canvas = Canvas(side, round(side * 9 / 16), jitter(rng, (r, g, b), 12))
    canvas.rectangle(0, 0.7, 1, 1, jitter(rng, (r * 0.7, g * 0.8, 60), 10))
    if category:
        look = np.random.default_rng(category)  # the species' look, the same everywhere
        colour = tuple(float(c) for c in look.integers(30, 230, 3))
        rx, ry = look.uniform(0.06, 0.18), look.uniform(0.05, 0.14)
        head = 1 if look.random() < 0.5 else -1
        x, y = rng.uniform(0.2, 0.8), rng.uniform(0.5, 0.75)
        canvas.ellipse(x, y, rx, ry, jitter(rng, colour, 10))
        canvas.ellipse(x + head * rx, y - ry, rx / 2.5, ry / 2, jitter(rng, colour, 10))
    return canvas.finish(rng, noise=8, blur=0.5)


def bursts(rng: np.random.Generator, n_train: int, n_test: int) -> tuple[np.ndarray, np.ndarray]:
    """Per image: its burst (a sequence of up to 3 frames, one split) and whether it is a test
    image; bursts come in random order, frames in order within a burst."""
    sizes = {}
    for split, n in (("train", n_train), ("test", n_test)):
        sizes[split] = [BURST] * (n // BURST) + ([n % BURST] if n % BURST else [])
    kinds = np.array([False] * len(sizes["train"]) + [True] * len(sizes["test"]))
    lengths = np.array(sizes["train"] + sizes["test"])
    order = rng.permutation(len(lengths))
    burst = np.repeat(np.arange(len(order)), lengths[order])
    return burst, np.repeat(kinds[order], lengths[order])


def locations(rng: np.random.Generator, burst_in_test: np.ndarray) -> np.ndarray:
    """A location per burst; test and training bursts never share one."""
    n = len(burst_in_test)
    n_locations = max(4, n * BURST // IMAGES_PER_LOCATION)
    n_test = min(n_locations - 1, max(1, round(n_locations * burst_in_test.mean())))
    out = rng.integers(n_test, n_locations, n)
    out[burst_in_test] = rng.integers(0, n_test, int(burst_in_test.sum()))
    return out


def detections(rng: np.random.Generator, image_id: str, category: int) -> dict[str, Any]:
    found: list[dict[str, Any]] = []
    best = 0.0
    if category or rng.random() < 0.1:
        x, y, w, h = (round(float(v), 4) for v in rng.uniform(0.1, 0.4, 4))
        best = round(float(rng.uniform(0.6, 1.0) if category else rng.uniform(0.1, 0.5)), 3)
        found.append({"category": "1", "bbox": [x, y, w, h], "conf": best})
    return {"detections": found, "id": image_id, "max_detection_conf": best}


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    burst, in_test = bursts(rng, size.n_train, size.n_test)
    n, n_bursts = len(burst), int(burst.max()) + 1
    n_categories = min(MAX_CATEGORIES, max(6, n // 800))
    species = np.sort(rng.choice(np.arange(1, 676), n_categories - 1, replace=False))
    category_ids = np.concatenate([[0], species])
    shares = (1 - EMPTY_SHARE) * rng.dirichlet(np.ones(len(species)))
    burst_labels = category_ids[rng.choice(n_categories, n_bursts, p=[EMPTY_SHARE, *shares])]
    burst_in_test = np.zeros(n_bursts, bool)
    burst_in_test[burst] = in_test
    for part in (burst_in_test, ~burst_in_test):  # the commonest classes in both splits
        chosen = np.flatnonzero(part)[:3]
        burst_labels[chosen] = category_ids[: len(chosen)]
    burst_location = locations(rng, burst_in_test)
    backgrounds = rng.integers(60, 200, (int(burst_location.max()) + 1, 3))
    labels, location = burst_labels[burst], burst_location[burst]
    frame = np.arange(n) - np.searchsorted(burst, burst)  # position within the burst
    burst_size = np.bincount(burst)[burst]

    ids, seq_ids, annotation_ids = uuids(rng, n), uuids(rng, n_bursts), uuids(rng, n)
    images, annotations, megadetector = [], [], []
    for k in range(n):
        b = int(burst[k])
        images.append(
            {
                "seq_num_frames": int(burst_size[k]),
                "location": int(location[k]),
                "datetime": f"2013-{1 + b % 12:02d}-{1 + b % 28:02d} "
                f"{b % 24:02d}:{b % 60:02d}:{int(frame[k]):02d}.000",
                "id": ids[k],
                "frame_num": int(frame[k]) + 1,
                "seq_id": seq_ids[b],
                "width": size.side,
                "height": round(size.side * 9 / 16),
                "file_name": f"{ids[k]}.jpg",
            }
        )
        category = int(labels[k])
        annotations.append(
            {
                "count": int(category != 0),
                "image_id": ids[k],
                "id": annotation_ids[k],
                "category_id": category,
            }
        )
        image = draw(rng, size.side, backgrounds[location[k]], category)
        save(image, public / ("test" if in_test[k] else "train") / f"{ids[k]}.jpg")
        megadetector.append(detections(rng, ids[k], category))

    seen = pd.Series(labels[~in_test]).value_counts()
    categories = [
        {"count": int(seen.get(c, 0)), "id": int(c), "name": f"species_{c}" if c else "empty"}
        for c in category_ids
    ]
    train = {
        "annotations": [a for a, t in zip(annotations, in_test, strict=True) if not t],
        "images": [im for im, t in zip(images, in_test, strict=True) if not t],
        "categories": categories,
        "info": INFO,
    }
    test = {
        "images": [im for im, t in zip(images, in_test, strict=True) if t],
        "categories": categories,
        "info": INFO,
    }
    detector = {
        "info": {"detector": "megadetector_v3", "format_version": "1.0"},
        "detection_categories": {"1": "animal", "2": "person"},
        "images": megadetector,
    }
    for name, content in (
        ("iwildcam2020_train_annotations.json", train),
        ("iwildcam2020_test_information.json", test),
        ("iwildcam2020_megadetector_results.json", detector),
    ):
        (public / name).write_text(json.dumps(content))

    answers = pd.DataFrame({"Id": np.array(ids)[in_test], "Category": labels[in_test]})
    answers.to_csv(private / "answers.csv", index=False)
    sample = answers.assign(
        Category=np.random.RandomState(SAMPLE_SEED).randint(0, 676, size=len(answers))
    )
    sample.to_csv(public / "sample_submission.csv", index=False)
