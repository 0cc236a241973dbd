"""dog-breed-identification: upstream's layout, one-hot answers in the breed-list order, and
breeds that colour and shape tell apart."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from bench_adapters.mlebench.graders.dog_breed_identification import BREEDS
from bench_adapters.mlebench.synthetic import DEFAULT_SIZES
from bench_adapters.mlebench.synthetic.dog_breed_identification import look
from tests.bench_adapters.synthetic.helpers import layout, prepared, read

CID = "dog-breed-identification"


def test_layout_ids_and_one_hot_answers(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    n_train, n_test = DEFAULT_SIZES[CID]
    assert layout(root) == {
        "private/test.csv": 1,
        "public/labels.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test/": n_test,
        "public/train/": n_train,
    }
    labels, answers = read(root, "public/labels.csv"), read(root, "private/test.csv")
    sample = read(root, "public/sample_submission.csv")
    assert list(labels.columns) == ["id", "breed"] and set(labels["breed"]) <= set(BREEDS)
    assert list(answers.columns) == list(sample.columns) == ["id", *BREEDS]
    assert (answers[BREEDS].sum(axis=1) == 1).all() and answers[BREEDS].dtypes.eq(np.int64).all()
    assert np.allclose(sample[BREEDS], 1 / 120) and sample["id"].tolist() == answers["id"].tolist()
    assert labels["id"].str.fullmatch(r"[0-9a-f]{32}").all()
    assert (root / "public" / "test" / f"{answers['id'][0]}.jpg").is_file()


def test_every_breed_has_its_own_look_and_the_coat_shows_it() -> None:
    looks = {look(k) for k in range(len(BREEDS))}
    assert len(looks) == len(BREEDS)


def test_coat_colour_is_drawn(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    labels = read(root, "public/labels.csv").head(40)
    errors = []
    for image_id, breed in zip(labels["id"], labels["breed"], strict=True):
        x = np.asarray(Image.open(root / "public" / "train" / f"{image_id}.jpg"), float)
        coat = np.array(look(BREEDS.index(breed))[0])
        errors.append(np.abs(np.median(x[13:19, 13:19].reshape(-1, 3), axis=0) - coat).mean())
    assert np.median(errors) < 40
