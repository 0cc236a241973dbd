"""plant-pathology-2020-fgvc7: upstream's layout (renumbered ``Train_i``/``Test_i`` ids, one
images folder) and spots that show the disease."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from bench_adapters.mlebench.synthetic import DEFAULT_SIZES
from tests.bench_adapters.synthetic.helpers import colour_features, cv_auc, layout, prepared, read

CID = "plant-pathology-2020-fgvc7"
CLASSES = ["healthy", "multiple_diseases", "rust", "scab"]


def test_layout_ids_and_labels(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    n_train, n_test = DEFAULT_SIZES[CID]
    assert layout(root) == {
        "private/test.csv": 1,
        "public/images/": n_train + n_test,
        "public/sample_submission.csv": 1,
        "public/test.csv": 1,
        "public/train.csv": 1,
    }
    train, test = read(root, "public/train.csv"), read(root, "public/test.csv")
    answers, sample = read(root, "private/test.csv"), read(root, "public/sample_submission.csv")
    assert (
        list(train.columns)
        == list(answers.columns)
        == list(sample.columns)
        == ["image_id", *CLASSES]
    )
    assert train["image_id"].tolist() == [f"Train_{i}" for i in range(n_train)]
    assert (
        test["image_id"].tolist()
        == answers["image_id"].tolist()
        == [f"Test_{i}" for i in range(n_test)]
    )
    assert (train[CLASSES].sum(axis=1) == 1).all() and (sample[CLASSES] == 0.25).all().all()
    assert (answers[CLASSES].sum() > 0).all()  # every class in the answers
    width, height = Image.open(root / "public" / "images" / "Test_0.jpg").size
    assert width > height  # landscape, as the photographs


def test_rust_shows_orange(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    train = read(root, "public/train.csv")
    paths = [root / "public" / "images" / f"{i}.jpg" for i in train["image_id"]]
    rust = train["rust"].to_numpy() + train["multiple_diseases"].to_numpy()
    assert cv_auc(colour_features(paths), rust) > 0.75
    assert np.isfinite(rust).all()
