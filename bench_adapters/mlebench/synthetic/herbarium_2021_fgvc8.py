"""herbarium-2021-fgvc8: pressed plant specimens from five herbaria, one species each out of
64,500 (``herbarium.draw``: leaf colour, shape, count... tell the species).

Public: ``train/metadata.json`` (COCO-like: ``annotations`` with ``category_id, id, image_id,
institution_id``; ``categories`` with ``family, id, name, order``; ``images`` with ``file_name,
height, id, license, width``; ``info``, ``institutions``, ``licenses``),
``train/images/<cat // 100:03d>/<cat % 100:02d>/<image id>.jpg``, ``test/metadata.json``
(``images, info, licenses`` only; test images renumbered ``"0"``, ``"1"``... in shuffled order)
and ``test/images/<idx // 1000:03d>/<idx>.jpg``; ``sample_submission.csv`` (``Id,Predicted`` =
0). Private: ``answers.csv`` (``Id,Predicted``: the category id). Every species is in both sets,
as upstream splits per species; ``categories`` lists the species that occur, not all 64,500.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size
from .herbarium import (
    LICENSES,
    coco_image,
    draw,
    info,
    names,
    specimens,
    train_order,
    write_json,
)
from .imaging import save

REAL_CATEGORIES = 64_500
INSTITUTIONS = ["New York Botanical Garden", "Bishop Museum", "Naturalis", "Queensland", "AAU"]
ORDERS = ["Asterales", "Fabales", "Poales", "Rosales", "Lamiales", "Asparagales"]


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    sheets = specimens(rng, size.n_train, size.n_test, REAL_CATEGORIES)
    species = names(rng, len(sheets.category_ids))
    image_ids = rng.choice(4 * (size.n_train + size.n_test), size.n_train, replace=False)
    institutions = rng.integers(0, len(INSTITUTIONS), size.n_train)
    train_images, annotations = [], []
    for row in train_order(rng, sheets.train):
        label, image_id = int(sheets.train[row]), int(image_ids[row])
        cat = int(sheets.category_ids[label])
        name = f"images/{cat // 100:03d}/{cat % 100:02d}/{image_id}.jpg"
        image = draw(rng, size.side, label)
        save(image, public / "train" / name)
        train_images.append(coco_image(name, image_id, image.size))
        annotations.append(
            {
                "category_id": cat,
                "id": image_id,
                "image_id": image_id,
                "institution_id": int(institutions[row]),
            }
        )
    categories = [
        {
            "family": s.family,
            "id": int(c),
            "name": f"{s.scientific} {s.author}",
            "order": ORDERS[k % len(ORDERS)],
        }
        for k, (c, s) in enumerate(zip(sheets.category_ids, species, strict=True))
    ]
    metadata = {
        "annotations": annotations,
        "categories": categories,
        "images": train_images,
        "info": info(),
        "institutions": [{"id": k, "name": r} for k, r in enumerate(INSTITUTIONS)],
        "licenses": LICENSES,
    }
    write_json(public / "train" / "metadata.json", metadata)

    test_images = []
    for idx, label in enumerate(sheets.test):
        name = f"images/{idx // 1000:03d}/{idx}.jpg"
        image = draw(rng, size.side, int(label))
        save(image, public / "test" / name)
        test_images.append(coco_image(name, str(idx), image.size))
    test = {"images": test_images, "info": info(), "licenses": LICENSES}
    write_json(public / "test" / "metadata.json", test)
    ids = np.arange(size.n_test)
    answers = pd.DataFrame({"Id": ids, "Predicted": sheets.category_ids[sheets.test]})
    answers.to_csv(private / "answers.csv", index=False)
    pd.DataFrame({"Id": ids, "Predicted": 0}).to_csv(public / "sample_submission.csv", index=False)
