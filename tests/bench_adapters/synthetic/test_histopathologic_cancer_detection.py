"""histopathologic-cancer-detection: upstream's layout (TIFF folders, raw row order) and a
tumour signal in the centre of the patch."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from bench_adapters.mlebench.synthetic import DEFAULT_SIZES
from tests.bench_adapters.synthetic.helpers import colour_features, cv_auc, layout, prepared, read

CID = "histopathologic-cancer-detection"


def test_layout_ids_and_labels(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    n_train, n_test = DEFAULT_SIZES[CID]
    assert layout(root) == {
        "private/answers.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test/": n_test,
        "public/train/": n_train,
        "public/train_labels.csv": 1,
    }
    train, answers = read(root, "public/train_labels.csv"), read(root, "private/answers.csv")
    sample = read(root, "public/sample_submission.csv")
    assert list(train.columns) == list(answers.columns) == list(sample.columns) == ["id", "label"]
    assert train["id"].str.fullmatch(r"[0-9a-f]{40}").all()
    assert sample["id"].tolist() == answers["id"].tolist() and (sample["label"] == 0).all()
    assert set(answers["label"]) == {0, 1}
    image = Image.open(root / "public" / "test" / f"{answers['id'][0]}.tif")
    assert image.format == "TIFF" and image.mode == "RGB"


def test_tumour_darkens_the_centre(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    train = read(root, "public/train_labels.csv")
    paths = [root / "public" / "train" / f"{i}.tif" for i in train["id"]]
    assert cv_auc(colour_features(paths), train["label"].to_numpy()) > 0.8
    assert np.isfinite(colour_features(paths[:2])).all()
