"""inaturalist-2019-fgvc6: photographs of plants, animals and fungi, each of one species
(Kaggle: 1,010, ids 0-1009, with a kingdom-to-genus taxonomy). A species has its own shape
and colour, shared by its genus' relatives in hue, which is the signal a model learns.

Public: ``train2019.json`` and ``test2019.json`` (COCO-style: ``images``, ``annotations`` in
train only, ``categories`` in train only, ``info``, ``licenses``; written with sorted keys and
an indent of 4, as upstream), ``val2019.json`` (Kaggle's small validation set, whose images
are not shipped, as upstream), ``train_val2019.tar.gz`` (a plain tar, not gzipped, as
upstream: ``<kingdom>/<category>/<hash>.jpg``), ``test2019.tar.gz`` (plain tar:
``<hash>.jpg``), ``kaggle_sample_submission.csv`` (``id,predicted`` = 654 on every row:
upstream seeds a fresh ``random.Random(42)`` for each row). Private: ``answers.csv``
(``id,predicted``) in the shuffled test order. As upstream, each species keeps 12% of its
images (at least one, when it has two or more) for the test set. Payload cap: images ``side``
pixels on the longer edge (Kaggle: 800).
"""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size
from .imaging import Canvas, blob, jitter

MAX_CATEGORIES = 1010
KINGDOMS = ["Plants", "Animalia", "Fungi"]
SAMPLE_PREDICTION = 654
INFO = {
    "year": 2019,
    "version": "1.0",
    "description": "Synthetic iNat 2019 stand-in",
    "contributor": "synthetic",
    "date_created": "2019-03-01",
}
VAL_IMAGES = 20
"""Images listed in ``val2019.json`` (not shipped, as upstream; Kaggle: 3,030)."""
LICENSES = [{"id": 0, "name": "Attribution-NonCommercial License", "url": "about:blank"}]


def taxonomy(rng: np.random.Generator, count: int) -> list[dict[str, Any]]:
    ids = np.sort(rng.choice(MAX_CATEGORIES, count, replace=False))
    out = []
    for k, category in enumerate(ids):
        genus = k // 3
        out.append(
            {
                "id": int(category),
                "name": f"species {category}",
                "kingdom": KINGDOMS[genus % len(KINGDOMS)],
                "phylum": f"phylum {genus % 7}",
                "class": f"class {genus % 13}",
                "order": f"order {genus % 29}",
                "family": f"family {genus % 61}",
                "genus": f"genus {genus}",
            }
        )
    return out


def draw(rng: np.random.Generator, side: int, category: dict[str, Any]) -> Image.Image:
    look = np.random.default_rng(category["id"])
    hue = np.random.default_rng(int(category["genus"].split()[1]))
    colour = tuple(float(c) for c in hue.integers(30, 230, 3) * 0.7 + look.integers(0, 70, 3))
    canvas = Canvas(side, round(side * 3 / 4), jitter(rng, (120, 130, 100), 30))
    x, y = rng.uniform(0.35, 0.65, 2)
    radius, roughness = look.uniform(0.15, 0.35), look.uniform(0.0, 0.5)
    canvas.polygon(
        blob(rng, x, y, radius, roughness, n=int(look.integers(5, 16))), jitter(rng, colour, 12)
    )
    return canvas.finish(rng, noise=6, blur=0.5)


def counts(
    rng: np.random.Generator, n_train: int, n_test: int, n_categories: int
) -> tuple[np.ndarray, np.ndarray]:
    """Train and test images per species: about 12% of each species in the test set."""
    weights = rng.dirichlet(np.full(n_categories, 5.0))
    test = (
        np.ones(n_categories, np.int64)
        if n_test >= n_categories
        else np.zeros(n_categories, np.int64)
    )
    test += rng.multinomial(n_test - test.sum(), weights)
    train = np.ones(n_categories, np.int64) + rng.multinomial(
        n_train - n_categories, test / test.sum()
    )
    return train, test


def add_image(tar: tarfile.TarFile, name: str, image: Image.Image) -> None:
    data = io.BytesIO()
    image.save(data, format="JPEG", quality=90)
    info = tarfile.TarInfo(name)
    info.size = data.tell()
    data.seek(0)
    tar.addfile(info, data)


def check_size(size: Size) -> None:
    if size.n_train < min(size.n_test, MAX_CATEGORIES):
        raise ValueError("n_train must be at least n_test (each species needs a training image)")


def plan(rng: np.random.Generator, size: Size, categories: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per image: id, file hash, species, kingdom, split; test rows shuffled last."""
    n_train, n_test = counts(rng, size.n_train, size.n_test, len(categories))
    species = np.repeat(np.arange(len(categories)), n_train + n_test)
    in_test = np.concatenate([np.arange(a + b) >= a for a, b in zip(n_train, n_test, strict=True)])
    hashes = rng.integers(0, 2**63, (len(species), 2))
    frame = pd.DataFrame(
        {
            "id": rng.permutation(len(species)),
            "name": [f"{a:016x}{b:016x}" for a, b in hashes],
            "category_id": [categories[k]["id"] for k in species],
            "kingdom": [categories[k]["kingdom"] for k in species],
            "in_test": in_test,
        }
    )
    test = frame[in_test].iloc[rng.permutation(int(in_test.sum()))]
    return pd.concat([frame[~in_test], test], ignore_index=True)


def image_record(row: Any, side: int, file_name: str) -> dict[str, Any]:
    return {
        "file_name": file_name,
        "height": round(side * 3 / 4),
        "id": int(row.id),
        "license": 0,
        "rights_holder": "synthetic",
        "width": side,
    }


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n_categories = min(MAX_CATEGORIES, max(5, size.n_test // 4), size.n_train)
    categories = taxonomy(rng, n_categories)
    by_id = {c["id"]: c for c in categories}
    images = plan(rng, size, categories)
    train, test = images[~images["in_test"]], images[images["in_test"]]
    with tarfile.open(public / "train_val2019.tar.gz", "w") as tar:
        for row in train.itertuples():
            image = draw(rng, size.side, by_id[row.category_id])
            add_image(tar, f"{row.kingdom}/{row.category_id}/{row.name}.jpg", image)
    with tarfile.open(public / "test2019.tar.gz", "w") as tar:
        for row in test.itertuples():
            add_image(tar, f"{row.name}.jpg", draw(rng, size.side, by_id[row.category_id]))

    def annotations(rows: pd.DataFrame) -> list[dict[str, int]]:
        return [
            {"category_id": int(c), "id": int(i), "image_id": int(i)}
            for i, c in zip(rows["id"], rows["category_id"], strict=True)
        ]

    train_json = {
        "annotations": annotations(train),
        "categories": categories,
        "images": [
            image_record(r, size.side, f"train_val2019/{r.kingdom}/{r.category_id}/{r.name}.jpg")
            for r in train.itertuples()
        ],
        "info": INFO,
        "licenses": LICENSES,
    }
    test_json = {
        "images": [image_record(r, size.side, f"test2019/{r.name}.jpg") for r in test.itertuples()],
        "info": INFO,
        "licenses": LICENSES,
    }
    val = train.head(VAL_IMAGES).assign(id=len(images) + np.arange(min(VAL_IMAGES, len(train))))
    val_json = {
        **train_json,
        "annotations": annotations(val),
        "images": [
            image_record(r, size.side, f"train_val2019/{r.kingdom}/{r.category_id}/{r.name}v.jpg")
            for r in val.itertuples()
        ],
    }
    for name, content in (
        ("train2019", train_json),
        ("test2019", test_json),
        ("val2019", val_json),
    ):
        (public / f"{name}.json").write_text(json.dumps(content, indent=4, sort_keys=True))

    answers = pd.DataFrame({"id": test["id"], "predicted": test["category_id"]})
    answers.to_csv(private / "answers.csv", index=False)
    sample = answers.assign(predicted=SAMPLE_PREDICTION)
    sample.to_csv(public / "kaggle_sample_submission.csv", index=False)
