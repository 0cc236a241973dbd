"""aerial-cactus-identification: upstream's layout (zipped JPEGs, no public test.csv) and a
learnable signal."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
from PIL import Image

from bench_adapters.mlebench.synthetic import DEFAULT_SIZES
from tests.bench_adapters.synthetic.helpers import cv_auc, layout, prepared, read

CID = "aerial-cactus-identification"


def test_layout_ids_and_labels(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    n_train, n_test = DEFAULT_SIZES[CID]
    assert layout(root) == {
        "private/test.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test.zip": n_test,
        "public/train.csv": 1,
        "public/train.zip": n_train,
    }
    train, answers = read(root, "public/train.csv"), read(root, "private/test.csv")
    sample = read(root, "public/sample_submission.csv")
    assert (
        list(train.columns) == list(answers.columns) == list(sample.columns) == ["id", "has_cactus"]
    )
    assert train["id"].str.fullmatch(r"[0-9a-f]{32}\.jpg").all()
    assert sample["id"].tolist() == answers["id"].tolist() and (sample["has_cactus"] == 0.5).all()
    assert not set(train["id"]) & set(answers["id"])
    assert 0.6 < train["has_cactus"].mean() < 0.9 and set(answers["has_cactus"]) == {0, 1}
    with zipfile.ZipFile(root / "public" / "test.zip") as zf:
        assert sorted(zf.namelist()) == sorted(answers["id"])  # members at the archive root
        image = Image.open(io.BytesIO(zf.read(answers["id"][0])))
        assert image.format == "JPEG" and image.size == (32, 32)


def test_a_green_column_marks_a_cactus(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    train = read(root, "public/train.csv")
    with zipfile.ZipFile(root / "public" / "train.zip") as zf:
        images = [np.asarray(Image.open(io.BytesIO(zf.read(i))), np.float32) for i in train["id"]]
    greenness = np.array(
        [[(x[..., 1] - x[..., 0]).max(), (x[..., 1] - x[..., 0]).mean()] for x in images]
    )
    assert cv_auc(greenness, train["has_cactus"].to_numpy()) > 0.85
