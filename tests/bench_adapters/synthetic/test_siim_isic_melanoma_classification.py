"""siim-isic-melanoma-classification: upstream's layout (metadata CSVs, JPEG folders) and a
lesion look and patient age that tell melanoma."""

from __future__ import annotations

from pathlib import Path

from bench_adapters.mlebench.synthetic import DEFAULT_SIZES
from tests.bench_adapters.synthetic.helpers import colour_features, cv_auc, layout, prepared, read

CID = "siim-isic-melanoma-classification"
META = ["image_name", "patient_id", "sex", "age_approx", "anatom_site_general_challenge"]


def test_layout_columns_and_names(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    n_train, n_test = DEFAULT_SIZES[CID]
    assert layout(root) == {
        "private/test.csv": 1,
        "public/jpeg/": n_train + n_test,
        "public/sample_submission.csv": 1,
        "public/test.csv": 1,
        "public/train.csv": 1,
    }
    assert len(list((root / "public" / "jpeg" / "test").iterdir())) == n_test
    train, test = read(root, "public/train.csv"), read(root, "public/test.csv")
    answers, sample = read(root, "private/test.csv"), read(root, "public/sample_submission.csv")
    assert list(train.columns) == [*META, "diagnosis", "benign_malignant", "target"]
    assert list(test.columns) == META
    assert list(answers.columns) == list(sample.columns) == ["image_name", "target"]
    assert (
        test["image_name"].tolist()
        == answers["image_name"].tolist()
        == sample["image_name"].tolist()
    )
    assert train["image_name"].str.fullmatch(r"ISIC_\d{7}").all()
    assert train["patient_id"].str.fullmatch(r"IP_\d{7}").all()
    assert (sample["target"] == 0).all() and answers["target"].sum() >= 3
    melanoma = train["target"] == 1
    assert (train.loc[melanoma, "diagnosis"] == "melanoma").all()
    assert (train.loc[melanoma, "benign_malignant"] == "malignant").all()
    assert train["target"].mean() < 0.2  # rare, as on Kaggle


def test_melanomas_look_different(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    train = read(root, "public/train.csv")
    paths = [root / "public" / "jpeg" / "train" / f"{n}.jpg" for n in train["image_name"]]
    assert cv_auc(colour_features(paths), train["target"].to_numpy()) > 0.8
