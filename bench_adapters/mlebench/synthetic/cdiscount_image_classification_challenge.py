"""cdiscount-image-classification-challenge: products of an online shop, each with 1-4
pictures and one of thousands of categories (Kaggle: 5,270, sizes falling off like Zipf's
law). A category's pictures share a shape and a colour (each product's pictures are drawn
from a few per-category variants), which is the signal a model learns.

Public: ``train.bson`` (one BSON document a product: ``_id`` int, ``imgs`` a list of
``{"picture": <JPEG bytes>}``, ``category_id`` int), ``test.bson`` (the same without
``category_id``), ``train_example.bson`` (the first 100 products of ``train.bson``),
``category_names.csv`` (``category_id,category_level1,category_level2,category_level3``),
``sample_submission.csv`` (``_id,category_id`` = 1000010653, the category of Kaggle's first
product). Private: ``answers.csv`` (``_id,category_id``). As upstream, the BSON files keep
the raw order (ascending ``_id``) and the answers are sorted by ``_id``.

Payload cap: Kaggle's pictures are 180x180 and its BSON files 58 GB; here pictures are
``side`` pixels square and the full size writes every test product but at most
``TRAIN_CAP`` training products.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd

from .bsonfile import encode
from .common import Size
from .imaging import Canvas, jitter

SAMPLE_CATEGORY = 1000010653
TRAIN_CAP = 200_000
"""Training products written at most (Kaggle: 6,362,906 products, 12.4M pictures)."""
EXAMPLE_ROWS = 100
MAX_CATEGORIES = 5270
TEST_PER_CATEGORY = 100
VARIANTS = 4
PICTURES = [0.6, 0.2, 0.1, 0.1]
"""Share of products with 1, 2, 3 and 4 pictures."""
DEPARTMENTS = [
    "AUTO - MOTO",
    "BAGAGERIE",
    "BIJOUX",
    "CHAUSSURES",
    "DROGUERIE",
    "ELECTROMENAGER",
    "EPICERIE",
    "INFORMATIQUE",
    "JARDIN",
    "JEUX - JOUETS",
    "LIBRAIRIE",
    "MUSIQUE",
    "PUERICULTURE",
    "SPORT",
    "TELEPHONIE",
    "VIN - ALCOOL",
]


def categories(rng: np.random.Generator, count: int) -> pd.DataFrame:
    ids = rng.choice(np.arange(1000000000, 1000030000), count - 1, replace=False)
    ids = np.concatenate([[SAMPLE_CATEGORY], ids[ids != SAMPLE_CATEGORY][: count - 1]])
    level1 = rng.choice(DEPARTMENTS, count)
    return pd.DataFrame(
        {
            "category_id": ids,
            "category_level1": level1,
            "category_level2": [f"{d} - RAYON {k % 40}" for k, d in enumerate(level1)],
            "category_level3": [f"ARTICLE {k}" for k in range(count)],
        }
    )


def picture(rng: np.random.Generator, side: int, index: int) -> bytes:
    """One JPEG of category number ``index``: its shape and colour, placed at random."""
    shape_rng = np.random.default_rng(index)  # the category's look, the same in every split
    colour = tuple(float(c) for c in shape_rng.integers(20, 236, 3))
    canvas = Canvas(side, side, jitter(rng, (235, 235, 235), 15))
    x, y = rng.uniform(0.35, 0.65, 2)
    r = 0.2 + 0.15 * shape_rng.random()
    kind = index % 3
    if kind == 0:
        canvas.ellipse(x, y, r, r * shape_rng.uniform(0.5, 1.0), jitter(rng, colour, 10))
    elif kind == 1:
        canvas.rectangle(x - r, y - r * 0.6, x + r, y + r * 0.6, jitter(rng, colour, 10))
    else:
        canvas.polygon([(x, y - r), (x + r, y + r), (x - r, y + r)], jitter(rng, colour, 10))
    out = io.BytesIO()
    canvas.finish(rng, noise=4).save(out, format="JPEG", quality=90, optimize=True)
    return out.getvalue()


def documents(
    rng: np.random.Generator,
    ids: np.ndarray,
    labels: np.ndarray,
    pool: list[list[bytes]],
    index: dict[int, int],
    *,
    with_label: bool,
) -> Iterator[bytes]:
    counts = rng.choice(len(PICTURES), len(ids), p=PICTURES) + 1
    picks = rng.integers(0, VARIANTS, (len(ids), len(PICTURES)))
    for k, (product, label) in enumerate(zip(ids.tolist(), labels.tolist(), strict=True)):
        variants = pool[index[label]]
        doc = {"_id": product, "imgs": [{"picture": variants[v]} for v in picks[k, : counts[k]]]}
        if with_label:
            doc["category_id"] = label
        yield encode(doc)


def write_bson(path: Path, records: Iterator[bytes], head: Path | None = None) -> None:
    """Write the documents to ``path`` and, when given, the first 100 of them to ``head``."""
    first: list[bytes] = []
    with open(path, "wb") as f:
        for record in records:
            if len(first) < EXAMPLE_ROWS:
                first.append(record)
            f.write(record)
    if head is not None:
        head.write_bytes(b"".join(first))


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n_categories = min(MAX_CATEGORIES, max(8, size.n_test // TEST_PER_CATEGORY))
    names = categories(rng, n_categories)
    names.to_csv(public / "category_names.csv", index=False)
    weights = 1 / np.arange(1, n_categories + 1) ** 0.8
    weights = rng.permutation(weights / weights.sum())
    n_train = min(size.n_train, TRAIN_CAP)
    n = n_train + size.n_test
    ids = np.sort(rng.choice(np.arange(3 * n), n, replace=False))
    labels = names["category_id"].to_numpy()[rng.choice(n_categories, n, p=weights)]
    labels[:n_categories] = names["category_id"].to_numpy()[: min(n, n_categories)]
    in_test = np.zeros(n, bool)
    in_test[rng.choice(n, size.n_test, replace=False)] = True

    answers = pd.DataFrame({"_id": ids[in_test], "category_id": labels[in_test]})
    answers.to_csv(private / "answers.csv", index=False)
    answers.assign(category_id=SAMPLE_CATEGORY).to_csv(
        public / "sample_submission.csv", index=False
    )
    pool = [[picture(rng, size.side, k) for _ in range(VARIANTS)] for k in range(n_categories)]
    index = {int(c): k for k, c in enumerate(names["category_id"])}
    train_ids, train_labels = ids[~in_test], labels[~in_test]
    write_bson(
        public / "train.bson",
        documents(rng, train_ids, train_labels, pool, index, with_label=True),
        head=public / "train_example.bson",
    )
    write_bson(
        public / "test.bson",
        documents(rng, ids[in_test], labels[in_test], pool, index, with_label=False),
    )
