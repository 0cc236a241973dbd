"""aptos2019-blindness-detection: upstream's layout (PNG folders) and grades that show."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image
from scipy.stats import spearmanr

from bench_adapters.mlebench.synthetic import DEFAULT_SIZES
from tests.bench_adapters.synthetic.helpers import layout, pixels, prepared, read

CID = "aptos2019-blindness-detection"


def test_layout_ids_and_grades(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    n_train, n_test = DEFAULT_SIZES[CID]
    assert layout(root) == {
        "private/test.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test.csv": 1,
        "public/test_images/": n_test,
        "public/train.csv": 1,
        "public/train_images/": n_train,
    }
    train, answers = read(root, "public/train.csv"), read(root, "private/test.csv")
    test, sample = read(root, "public/test.csv"), read(root, "public/sample_submission.csv")
    assert list(train.columns) == list(answers.columns) == ["id_code", "diagnosis"]
    assert list(test.columns) == ["id_code"] and (sample["diagnosis"] == 0).all()
    assert test["id_code"].tolist() == answers["id_code"].tolist() == sample["id_code"].tolist()
    assert train["id_code"].str.fullmatch(r"[0-9a-f]{12}").all()
    assert set(train["diagnosis"]) == set(range(5))
    image = Image.open(root / "public" / "test_images" / f"{test['id_code'][0]}.png")
    assert image.format == "PNG"


def test_higher_grades_show_more_lesions(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    train = read(root, "public/train.csv")
    lesions = [  # share of dark-red pixels on the fundus
        (pixels(root / "public" / "train_images" / f"{i}.png")[6:26, 6:26, 0] < 0.5).mean()
        for i in train["id_code"]
    ]
    rho = spearmanr(lesions, train["diagnosis"]).statistic
    assert np.isfinite(rho) and rho > 0.6, rho
