"""Generators of batch A (the dev split): upstream's prepared layout and formats (7z archives
that py7zr opens, zipped TSVs, ``.npy`` arrays, image folders), a signal a simple model finds,
and ``baselines check`` on every fixture (the answers win gold, the sample stays below the
median and is valid, corrupted copies are refused)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import py7zr
import pytest
from PIL import Image
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import NearestCentroid

from baselines.check import CheckOptions, check_tasks
from bench_adapters.mlebench.synthetic import DEFAULT_SIZES
from bench_adapters.mlebench.synthetic.sevenzip import number, write_7z
from tests.bench_adapters.synthetic.helpers import colour_features, cv_auc, layout, prepared, read

BATCH_A = [
    "invasive-species-monitoring",
    "ml2021spring-hw2",
    "movie-review-sentiment-analysis-kernels-only",
    "paddy-disease-classification",
    "plant-seedlings-classification",
]


def gain_over_majority(features: np.ndarray, labels: np.ndarray, model: Any = None) -> float:
    """Cross-validated accuracy of a model (a logistic regression by default) minus the
    majority class's share."""
    model = model or LogisticRegression(max_iter=3000)
    accuracy = cross_val_score(model, features, labels, cv=3, scoring="accuracy").mean()
    return float(accuracy - pd.Series(labels).value_counts(normalize=True).iloc[0])


@pytest.fixture(scope="module")
def check_report(
    tmp_path_factory: pytest.TempPathFactory, mlebench_data: Path, mlebench_checkout: Path
) -> dict[str, Any]:
    """``baselines check`` on batch A's fixtures, against their stand-in leaderboards."""
    options = CheckOptions(
        out_dir=tmp_path_factory.mktemp("check-a"),
        task_options={"data_dir": mlebench_data, "mlebench_dir": mlebench_checkout},
        smoke=True,
        baselines=False,  # each baseline's smoke check is tests/baselines/mlebench/'s
    )
    return check_tasks([f"mlebench/{cid}" for cid in BATCH_A], options).to_dict()


@pytest.mark.parametrize("cid", BATCH_A)
def test_baselines_check_holds(check_report: dict[str, Any], cid: str) -> None:
    (task,) = [t for t in check_report["tasks"] if t["task"] == f"mlebench/{cid}"]
    got = {(o["submission"], o["expectation"]): o["status"] for o in task["outcomes"]}
    got.pop(("baseline", "valid, above median"), None)  # not run here
    assert set(got.values()) == {"pass"}, task["outcomes"]
    assert set(got) == {
        ("gold", "valid"),
        ("gold", "gold medal"),
        ("sample", "valid"),
        ("sample", "not above median"),
        ("missing-column", "invalid, with a message"),
        ("wrong-row-count", "invalid, with a message"),
    }


# --- 7z ---------------------------------------------------------------------------------------


def test_sevenzip_round_trips_through_py7zr(tmp_path: Path) -> None:
    files = {"train/1.jpg": b"\xff\xd8" + bytes(range(256)) * 300, "notes é.txt": "ü".encode()}
    write_7z(tmp_path / "a.7z", files.items())
    with py7zr.SevenZipFile(tmp_path / "a.7z") as archive:
        assert archive.getnames() == list(files)
        assert archive.testzip() is None  # every CRC holds
    with py7zr.SevenZipFile(tmp_path / "a.7z") as archive:
        archive.extractall(tmp_path / "out")
    for name, data in files.items():
        assert (tmp_path / "out" / name).read_bytes() == data
    assert [number(v).hex() for v in (0, 127, 128, 70_000)] == ["00", "7f", "8080", "c17011"]
    with pytest.raises(ValueError, match="empty"):
        write_7z(tmp_path / "b.7z", [("empty.txt", b"")])


# --- invasive-species-monitoring --------------------------------------------------------------


def test_invasive_layout_archives_and_signal(mlebench_data: Path, tmp_path: Path) -> None:
    folder = prepared(mlebench_data, "invasive-species-monitoring")
    n_train, n_test = DEFAULT_SIZES["invasive-species-monitoring"]
    assert layout(folder) == {
        "private/answers.csv": 1,
        "private/sample_submission.csv": 1,
        "public/sample_submission.csv.zip": 1,
        "public/test.7z": 1,
        "public/train.7z": 1,
        "public/train_labels.csv.zip": 1,
    }
    with zipfile.ZipFile(folder / "public/train_labels.csv.zip") as zf:
        assert zf.namelist() == ["train_labels.csv"]
        train = pd.read_csv(io.BytesIO(zf.read("train_labels.csv")))
    answers = read(folder, "private/answers.csv")
    sample = read(folder, "private/sample_submission.csv")
    with zipfile.ZipFile(folder / "public/sample_submission.csv.zip") as zf:
        assert (
            zf.read("sample_submission.csv")
            == (folder / "private/sample_submission.csv").read_bytes()
        )
    assert list(train.columns) == list(answers.columns) == ["name", "invasive"]
    assert (len(train), len(answers)) == (n_train, n_test)
    assert sample["name"].tolist() == answers["name"].tolist() and (sample["invasive"] == 0.5).all()
    assert sorted([*train["name"], *answers["name"]]) == list(range(1, n_train + n_test + 1))
    for part, frame in (("train", train), ("test", answers)):
        with py7zr.SevenZipFile(folder / f"public/{part}.7z") as archive:
            assert sorted(archive.getnames()) == sorted(f"{part}/{n}.jpg" for n in frame["name"])
            archive.extractall(tmp_path)
    paths = [tmp_path / "train" / f"{n}.jpg" for n in train["name"]]
    assert Image.open(paths[0]).size == (32, 24)  # 4:3 landscape
    assert cv_auc(colour_features(paths), train["invasive"].to_numpy()) > 0.8


# --- ml2021spring-hw2 -------------------------------------------------------------------------


def test_ml2021_arrays_labels_and_signal(mlebench_data: Path) -> None:
    folder = prepared(mlebench_data, "ml2021spring-hw2")
    n_train, n_test = DEFAULT_SIZES["ml2021spring-hw2"]
    arrays = folder / "public" / "timit_11" / "timit_11"
    train = np.load(arrays / "train_11.npy")
    labels = np.load(arrays / "train_label_11.npy")
    test = np.load(arrays / "test_11.npy")
    assert train.shape == (n_train, 429) and test.shape == (n_test, 429)
    assert train.dtype == test.dtype == np.float32 and labels.dtype == np.dtype("<U2")
    answers = read(folder, "private/answers.csv")
    sample = read(folder, "public/sampleSubmission.csv")
    assert list(answers.columns) == list(sample.columns) == ["Id", "ClassId"]
    assert answers["Id"].tolist() == sample["Id"].tolist() == list(range(n_test))
    assert (sample["ClassId"] == 0).all() and answers["ClassId"].between(0, 38).all()
    y = labels.astype(int)
    assert set(y) | set(answers["ClassId"]) == set(range(39))
    centre = train[:, 195:234]  # the centre frame alone
    assert gain_over_majority(centre, y, NearestCentroid()) > 0.3


# --- movie-review-sentiment-analysis-kernels-only ---------------------------------------------


def test_movie_review_tsvs_phrases_and_signal(mlebench_data: Path) -> None:
    folder = prepared(mlebench_data, "movie-review-sentiment-analysis-kernels-only")
    n_train, n_test = DEFAULT_SIZES["movie-review-sentiment-analysis-kernels-only"]
    frames = {}
    for part in ("train", "test"):
        with zipfile.ZipFile(folder / f"public/{part}.tsv.zip") as zf:
            assert zf.namelist() == [f"{part}.tsv"]
            frames[part] = pd.read_csv(io.BytesIO(zf.read(f"{part}.tsv")), sep="\t")
    train, test = frames["train"], frames["test"]
    answers = read(folder, "private/answers.csv")
    sample = read(folder, "public/sampleSubmission.csv")
    assert list(train.columns) == list(answers.columns) == [
        "PhraseId", "SentenceId", "Phrase", "Sentiment"
    ]  # fmt: skip
    assert list(test.columns) == ["PhraseId", "SentenceId", "Phrase"]
    assert (len(train), len(test)) == (n_train, n_test)
    assert test["PhraseId"].tolist() == answers["PhraseId"].tolist() == sample["PhraseId"].tolist()
    assert (sample["Sentiment"] == 2).all() and set(train["Sentiment"]) == set(range(5))
    ids = sorted([*train["PhraseId"], *test["PhraseId"]])
    assert ids == list(range(1, n_train + n_test + 1))
    assert train.groupby("SentenceId").size().max() > 1  # phrases share their sentence
    words = CountVectorizer().fit_transform(train["Phrase"])
    assert gain_over_majority(words, train["Sentiment"].to_numpy()) > 0.2  # type: ignore[arg-type]


# --- paddy-disease-classification -------------------------------------------------------------


def test_paddy_layout_folders_and_signal(mlebench_data: Path) -> None:
    folder = prepared(mlebench_data, "paddy-disease-classification")
    n_train, n_test = DEFAULT_SIZES["paddy-disease-classification"]
    train = read(folder, "public/train.csv")
    answers = read(folder, "private/test.csv")
    sample = pd.read_csv(folder / "public/sample_submission.csv", keep_default_na=False)
    assert list(train.columns) == list(answers.columns) == ["image_id", "label", "variety", "age"]
    assert list(sample.columns) == ["image_id", "label"] and (sample["label"] == "").all()
    assert sample["image_id"].tolist() == answers["image_id"].tolist()
    assert (len(train), len(answers)) == (n_train, n_test)
    assert train["image_id"].str.fullmatch(r"\d{6}\.jpg").all()
    for row in train.itertuples():
        assert (folder / "public/train_images" / row.label / row.image_id).is_file()
    assert sorted(p.name for p in (folder / "public/test_images").iterdir()) == sorted(
        answers["image_id"]
    )
    assert set(train["label"]) | set(answers["label"]) == {
        "normal", "blast", "hispa", "dead_heart", "tungro", "brown_spot", "downy_mildew",
        "bacterial_leaf_blight", "bacterial_leaf_streak", "bacterial_panicle_blight",
    }  # fmt: skip
    paths = [folder / "public/train_images" / r.label / r.image_id for r in train.itertuples()]
    assert Image.open(paths[0]).size == (24, 32)  # 3:4 portrait
    assert gain_over_majority(colour_features(paths), train["label"].to_numpy()) > 0.15


# --- plant-seedlings-classification -----------------------------------------------------------


def test_seedlings_layout_folders_and_signal(mlebench_data: Path) -> None:
    folder = prepared(mlebench_data, "plant-seedlings-classification")
    n_train, n_test = DEFAULT_SIZES["plant-seedlings-classification"]
    answers = read(folder, "private/answers.csv")
    sample = read(folder, "public/sample_submission.csv")
    assert list(answers.columns) == list(sample.columns) == ["file", "species"]
    assert sample["file"].tolist() == answers["file"].tolist()
    assert (sample["species"] == "Sugar beet").all() and len(answers) == n_test
    train = [(p.parent.name, p) for p in sorted((folder / "public/train").glob("*/*.png"))]
    assert len(train) == n_train and len({s for s, _ in train}) == 12
    assert sorted(p.name for p in (folder / "public/test").iterdir()) == sorted(answers["file"])
    assert answers["file"].str.fullmatch(r"[0-9a-f]{9}\.png").all()
    features = colour_features([p for _, p in train])
    assert gain_over_majority(features, np.array([s for s, _ in train])) > 0.15
