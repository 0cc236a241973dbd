"""herbarium-2022-fgvc9: pressed specimens of North American vascular plants, one species each
out of 15,501 (``herbarium.draw``: leaf colour, shape, count... tell the species).

Public: ``train_metadata.json`` (``annotations`` with ``category_id, genus_id, image_id,
institution_id``; ``categories`` with ``authors, category_id, family, genus, scientificName,
species``; ``distances`` between genera; ``genera``; ``images`` with ``file_name, image_id,
license``; ``institutions``; ``licenses``), ``train_images/<cat // 100:03d>/<cat % 100:02d>/
<cat:05d>__<k:03d>.jpg`` (train images renumbered within their species), ``test_metadata.json``
(a list of ``images`` entries, renumbered ``"0"``, ``"1"``... in shuffled order),
``test_images/<idx // 1000:03d>/test-<idx:06d>.jpg``; ``sample_submission.csv``
(``Id,Predicted`` = 42). Private: ``answers.csv`` (``Id,Predicted``: the category id). Every
species is in both sets, as upstream's per-species split makes it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size
from .herbarium import LICENSES, draw, names, specimens, train_order, write_json
from .imaging import save

REAL_CATEGORIES = 15_501
INSTITUTIONS = ["NY", "MO", "F", "TEX", "US"]


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    sheets = specimens(rng, size.n_train, size.n_test, REAL_CATEGORIES)
    species = names(rng, len(sheets.category_ids))
    genera = sorted({s.genus for s in species})
    genus_id = {g: k for k, g in enumerate(genera)}
    institutions = rng.integers(0, len(INSTITUTIONS), size.n_train)
    train_images, annotations, within = [], [], np.zeros(len(species), np.int64)
    for row in train_order(rng, sheets.train):
        label = int(sheets.train[row])
        cat = int(sheets.category_ids[label])
        within[label] += 1
        image_id = f"{cat:05d}__{within[label]:03d}"
        name = f"{cat // 100:03d}/{cat % 100:02d}/{image_id}.jpg"
        save(draw(rng, size.side, label), public / "train_images" / name)
        train_images.append({"file_name": name, "image_id": image_id, "license": 0})
        annotations.append(
            {
                "category_id": cat,
                "genus_id": genus_id[species[label].genus],
                "image_id": image_id,
                "institution_id": int(institutions[row]),
            }
        )
    categories = [
        {
            "authors": s.author,
            "category_id": int(c),
            "family": s.family,
            "genus": s.genus,
            "scientificName": f"{s.scientific} {s.author}",
            "species": s.epithet,
        }
        for c, s in zip(sheets.category_ids, species, strict=True)
    ]
    distances = [
        {"distance": float(abs(a - b)) / len(genera), "genus_id_x": a, "genus_id_y": b}
        for a in range(len(genera))
        for b in range(a + 1, min(a + 4, len(genera)))
    ]
    metadata = {
        "annotations": annotations,
        "categories": categories,
        "distances": distances,
        "genera": [{"genus": g, "genus_id": k} for g, k in genus_id.items()],
        "images": train_images,
        "institutions": [
            {"collectionCode": c, "institution_id": k} for k, c in enumerate(INSTITUTIONS)
        ],
        "licenses": LICENSES,
    }
    write_json(public / "train_metadata.json", metadata)

    test_images = []
    for idx, label in enumerate(sheets.test):
        name = f"{idx // 1000:03d}/test-{idx:06d}.jpg"
        save(draw(rng, size.side, int(label)), public / "test_images" / name)
        test_images.append({"file_name": name, "image_id": str(idx), "license": 0})
    write_json(public / "test_metadata.json", test_images)
    ids = np.arange(size.n_test)
    answers = pd.DataFrame({"Id": ids, "Predicted": sheets.category_ids[sheets.test]})
    answers.to_csv(private / "answers.csv", index=False)
    pd.DataFrame({"Id": ids, "Predicted": 42}).to_csv(public / "sample_submission.csv", index=False)
