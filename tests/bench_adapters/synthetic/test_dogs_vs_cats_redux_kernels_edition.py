"""dogs-vs-cats-redux-kernels-edition: upstream's layout (named train images, numbered test
images, both also zipped) and answers with both classes."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np

from bench_adapters.mlebench.synthetic import DEFAULT_SIZES
from tests.bench_adapters.synthetic.helpers import cv_auc, layout, pixels, prepared, read

CID = "dogs-vs-cats-redux-kernels-edition"


def test_layout_names_and_answers(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    n_train, n_test = DEFAULT_SIZES[CID]
    assert layout(root) == {
        "private/answers.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test/": n_test,
        "public/test.zip": n_test,
        "public/train/": n_train,
        "public/train.zip": n_train,
    }
    names = sorted(p.name for p in (root / "public" / "train").iterdir())
    cats = sorted(int(n.split(".")[1]) for n in names if n.startswith("cat."))
    dogs = sorted(int(n.split(".")[1]) for n in names if n.startswith("dog."))
    assert cats == list(range(len(cats))) and dogs == list(range(len(dogs)))  # numbered per animal
    assert len(cats) + len(dogs) == n_train and cats and dogs
    answers, sample = read(root, "private/answers.csv"), read(root, "public/sample_submission.csv")
    assert answers["id"].tolist() == sample["id"].tolist() == list(range(1, n_test + 1))
    assert set(answers["label"]) == {0, 1} and (sample["label"] == 0.5).all()
    assert sorted(p.name for p in (root / "public" / "test").iterdir()) == sorted(
        f"{i}.jpg" for i in answers["id"]
    )
    with zipfile.ZipFile(root / "public" / "train.zip") as zf:
        assert sorted(zf.namelist()) == names


def test_the_ears_tell_the_animal(mlebench_data: Path) -> None:
    """The silhouette of the head (pixels of the coat's colour) separates cats from dogs."""
    root = prepared(mlebench_data, CID)
    paths = sorted((root / "public" / "train").iterdir())
    labels = np.array([int(p.name.startswith("dog.")) for p in paths])
    x = np.stack([pixels(p, 16) for p in paths])
    coat = np.median(x[:, 6:10, 6:10].reshape(len(x), -1, 3), axis=1)
    silhouette = np.abs(x - coat[:, None, None, :]).sum(axis=-1) < 0.25
    assert cv_auc(silhouette.reshape(len(x), -1).astype(float), labels) > 0.85
