"""leaf-classification: upstream's layout (192 feature columns, one image per leaf, one-hot
answers) and features that separate the species."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from bench_adapters.mlebench.graders.leaf_classification import SPECIES
from bench_adapters.mlebench.synthetic import DEFAULT_SIZES
from tests.bench_adapters.synthetic.helpers import layout, prepared, read

CID = "leaf-classification"
FEATURES = [f"{kind}{k}" for kind in ("margin", "shape", "texture") for k in range(1, 65)]


def test_layout_columns_and_one_hot_answers(mlebench_data: Path) -> None:
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
    assert list(train.columns) == ["id", "species", *FEATURES]
    assert list(test.columns) == ["id", *FEATURES]
    assert list(answers.columns) == list(sample.columns) == ["id", *SPECIES]
    assert test["id"].tolist() == answers["id"].tolist() == sample["id"].tolist()
    assert (answers[SPECIES].sum(axis=1) == 1).all() and np.allclose(sample[SPECIES], 1 / 99)
    assert set(train["species"]) == set(SPECIES)  # every species in train
    margins = train.filter(like="margin").to_numpy()
    assert np.allclose(margins.sum(axis=1), 1, atol=0.1) and (margins >= 0).all()
    ids = sorted((root / "public" / "images").iterdir(), key=lambda p: int(p.stem))
    assert [int(p.stem) for p in ids] == sorted([*train["id"], *test["id"]])
    assert Image.open(ids[0]).mode == "L"


def test_a_linear_model_tells_species_apart(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    train, test = read(root, "public/train.csv"), read(root, "public/test.csv")
    answers = read(root, "private/test.csv")
    model = make_pipeline(StandardScaler(), LogisticRegression(C=30, max_iter=2000))
    model.fit(train[FEATURES], train["species"])
    accuracy = (model.predict(test[FEATURES]) == answers[SPECIES].idxmax(axis=1)).mean()
    assert accuracy > 0.5
