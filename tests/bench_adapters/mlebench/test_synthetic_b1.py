"""Generators of batch B1: upstream's prepared layout, payloads that real readers open
(TFRecord through protobuf, BSON through pymongo's ``bson``, DICOM through pydicom), and a
signal a simple model finds. The grader sanity check over all of them is at the end."""

from __future__ import annotations

import io
import json
import struct
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from bench_adapters.mlebench.synthetic import DEFAULT_SIZES
from bench_adapters.mlebench.synthetic.tfrecord import crc32c, masked_crc
from tests.bench_adapters.synthetic.helpers import colour_features, layout, prepared, read


def cv_accuracy_gain(features: np.ndarray, labels: np.ndarray) -> float:
    """Cross-validated accuracy of a logistic regression minus the majority class's share."""
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=3000))
    accuracy = cross_val_score(model, features, labels, cv=3, scoring="accuracy").mean()
    return float(accuracy - pd.Series(labels).value_counts(normalize=True).iloc[0])


# --- TFRecord (cassava) ---------------------------------------------------------------------


def example_class() -> Any:
    """``tf.train.Example`` built from its published schema, so protobuf itself parses ours."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    field = descriptor_pb2.FieldDescriptorProto
    proto = descriptor_pb2.FileDescriptorProto(name="b1_example.proto", package="b1tf")
    proto.syntax = "proto3"
    for name, kind in (("BytesList", field.TYPE_BYTES), ("Int64List", field.TYPE_INT64)):
        message = proto.message_type.add(name=name)
        message.field.add(name="value", number=1, type=kind, label=field.LABEL_REPEATED)
    feature = proto.message_type.add(name="Feature")
    for name, number, type_name in (("bytes_list", 1, "BytesList"), ("int64_list", 3, "Int64List")):
        feature.field.add(
            name=name,
            number=number,
            type=field.TYPE_MESSAGE,
            type_name=f".b1tf.{type_name}",
            label=field.LABEL_OPTIONAL,
        )
    features = proto.message_type.add(name="Features")
    entry = features.nested_type.add(name="FeatureEntry")
    entry.options.map_entry = True
    entry.field.add(name="key", number=1, type=field.TYPE_STRING, label=field.LABEL_OPTIONAL)
    entry.field.add(
        name="value",
        number=2,
        type=field.TYPE_MESSAGE,
        type_name=".b1tf.Feature",
        label=field.LABEL_OPTIONAL,
    )
    features.field.add(
        name="feature",
        number=1,
        type=field.TYPE_MESSAGE,
        type_name=".b1tf.Features.FeatureEntry",
        label=field.LABEL_REPEATED,
    )
    example = proto.message_type.add(name="Example")
    example.field.add(
        name="features",
        number=1,
        type=field.TYPE_MESSAGE,
        type_name=".b1tf.Features",
        label=field.LABEL_OPTIONAL,
    )
    pool = descriptor_pool.DescriptorPool()
    pool.Add(proto)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("b1tf.Example"))


def read_tfrecord(path: Path) -> list[bytes]:
    """Every record's payload, checking both masked CRCs as TensorFlow's reader does."""
    data, records, at = path.read_bytes(), [], 0
    while at < len(data):
        header = data[at : at + 8]
        (length,) = struct.unpack("<Q", header)
        assert struct.unpack("<I", data[at + 8 : at + 12])[0] == masked_crc(header)
        payload = data[at + 12 : at + 12 + length]
        assert struct.unpack("<I", data[at + 12 + length : at + 16 + length])[0] == masked_crc(
            payload
        )
        records.append(payload)
        at += 16 + length
    return records


def test_crc32c_matches_the_published_check_values() -> None:
    assert crc32c(b"123456789") == 0xE3069283
    assert crc32c(bytes(32)) == 0x8A9136AA  # RFC 3720, B.4
    assert crc32c(b"\xff" * 32) == 0x62A8AB43


CASSAVA = "cassava-leaf-disease-classification"


def test_cassava_layout_and_tfrecords(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CASSAVA)
    n_train, n_test = DEFAULT_SIZES[CASSAVA]
    assert layout(root) == {
        "private/test.csv": 1,
        "public/label_num_to_disease_map.json": 1,
        "public/sample_submission.csv": 1,
        "public/test_images/": n_test,
        "public/test_tfrecords/": 2,
        "public/train.csv": 1,
        "public/train_images/": n_train,
        "public/train_tfrecords/": 14,
    }
    train, answers = read(root, "public/train.csv"), read(root, "private/test.csv")
    sample = read(root, "public/sample_submission.csv")
    assert list(train.columns) == list(answers.columns) == list(sample.columns)
    assert list(answers.columns) == ["image_id", "label"] and (sample["label"] == 4).all()
    assert sample["image_id"].tolist() == answers["image_id"].tolist()
    assert train["image_id"].tolist() == sorted(train["image_id"])  # Kaggle's train.csv order
    assert set(train["label"]) == set(range(5))
    assert json.loads((root / "public/label_num_to_disease_map.json").read_text())["4"] == "Healthy"

    example = example_class()
    labels = dict(zip(answers["image_id"], answers["label"], strict=True))
    seen = []
    for index, path in enumerate(sorted((root / "public" / "test_tfrecords").iterdir())):
        records = read_tfrecord(path)
        assert path.name == f"ld_test{index:02d}-{len(records)}.tfrec"
        for record in records:
            feature = example.FromString(record).features.feature
            name = feature["image_name"].bytes_list.value[0].decode()
            assert feature["target"].int64_list.value[0] == labels[name]
            image = feature["image"].bytes_list.value[0]
            assert image == (root / "public" / "test_images" / name).read_bytes()
            seen.append(name)
    assert sorted(seen) == sorted(labels)


def test_cassava_diseases_show_in_colour(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CASSAVA)
    train = read(root, "public/train.csv")
    features = colour_features([root / "public" / "train_images" / i for i in train["image_id"]])
    assert cv_accuracy_gain(features, train["label"].to_numpy()) > 0.25


# --- BSON (cdiscount) ------------------------------------------------------------------------

CDISCOUNT = "cdiscount-image-classification-challenge"


def test_cdiscount_layout_and_bson_as_pymongo_reads_it(mlebench_data: Path) -> None:
    import bson  # pymongo's, as upstream's prepare.py reads Kaggle's files

    root = prepared(mlebench_data, CDISCOUNT)
    n_train, n_test = DEFAULT_SIZES[CDISCOUNT]
    assert sorted(layout(root)) == [
        "private/answers.csv",
        "public/category_names.csv",
        "public/sample_submission.csv",
        "public/test.bson",
        "public/train.bson",
        "public/train_example.bson",
    ]
    with open(root / "public" / "train.bson", "rb") as f:
        train = list(bson.decode_file_iter(f))
    with open(root / "public" / "train_example.bson", "rb") as f:
        assert list(bson.decode_file_iter(f)) == train[:100]
    with open(root / "public" / "test.bson", "rb") as f:
        test = list(bson.decode_file_iter(f))
    assert len(train) == n_train and len(test) == n_test
    assert list(train[0]) == ["_id", "imgs", "category_id"] and list(test[0]) == ["_id", "imgs"]
    assert all(1 <= len(d["imgs"]) <= 4 for d in train + test)
    answers, sample = read(root, "private/answers.csv"), read(root, "public/sample_submission.csv")
    names = read(root, "public/category_names.csv")
    assert list(names.columns) == ["category_id", *(f"category_level{k}" for k in (1, 2, 3))]
    assert answers["_id"].tolist() == sorted(d["_id"] for d in test) == sample["_id"].tolist()
    assert [d["_id"] for d in train] == sorted(d["_id"] for d in train)  # raw order
    assert (sample["category_id"] == 1000010653).all()
    assert set(answers["category_id"]) <= set(names["category_id"])

    # The signal: a product's first picture tells its category.
    pictures = [io.BytesIO(d["imgs"][0]["picture"]) for d in train]
    features = colour_features(pictures)  # type: ignore[arg-type]
    labels = np.array([d["category_id"] for d in train])
    assert cv_accuracy_gain(features, labels) > 0.3


# --- camera traps (iwildcam-2020) -------------------------------------------------------------

IWILDCAM = "iwildcam-2020-fgvc7"


def test_iwildcam_layout_split_by_location_and_sample(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, IWILDCAM)
    n_train, n_test = DEFAULT_SIZES[IWILDCAM]
    assert layout(root) == {
        "private/answers.csv": 1,
        "public/iwildcam2020_megadetector_results.json": 1,
        "public/iwildcam2020_test_information.json": 1,
        "public/iwildcam2020_train_annotations.json": 1,
        "public/sample_submission.csv": 1,
        "public/test/": n_test,
        "public/train/": n_train,
    }
    public = root / "public"
    train = json.loads((public / "iwildcam2020_train_annotations.json").read_text())
    test = json.loads((public / "iwildcam2020_test_information.json").read_text())
    detector = json.loads((public / "iwildcam2020_megadetector_results.json").read_text())
    assert list(train) == ["annotations", "images", "categories", "info"]
    assert list(test) == ["images", "categories", "info"]
    assert len(train["images"]) == len(train["annotations"]) == n_train
    train_places = {im["location"] for im in train["images"]}
    assert train_places.isdisjoint(im["location"] for im in test["images"])
    answers, sample = read(root, "private/answers.csv"), read(root, "public/sample_submission.csv")
    assert answers["Id"].tolist() == [im["id"] for im in test["images"]] == sample["Id"].tolist()
    expected = np.random.RandomState(0).randint(0, 676, size=n_test)  # upstream's sample
    assert sample["Category"].tolist() == expected.tolist()
    assert 0 in set(answers["Category"]) and {c["id"] for c in train["categories"]} >= set(
        answers["Category"]
    )
    assert len(detector["images"]) == n_train + n_test
    for image in test["images"][:3]:
        assert (public / "test" / image["file_name"]).is_file()
    sequences = pd.DataFrame(train["images"]).groupby("seq_id")
    assert (sequences["location"].nunique() == 1).all()


def test_iwildcam_species_show_in_colour(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, IWILDCAM)
    train = json.loads((root / "public/iwildcam2020_train_annotations.json").read_text())
    paths = [root / "public" / "train" / im["file_name"] for im in train["images"]]
    labels = np.array([a["category_id"] for a in train["annotations"]])
    assert cv_accuracy_gain(colour_features(paths), labels) > 0.15


# --- steganalysis (alaska2) -------------------------------------------------------------------

ALASKA = "alaska2-image-steganalysis"


def residual_energy(path: Path) -> list[float]:
    """Per period-2 pattern (checkerboard, rows, columns): how strongly the image's high-pass
    residual follows it, averaged over 8x8 blocks."""
    from PIL import Image, ImageFilter

    grey = Image.open(path).convert("L")
    x = np.asarray(grey, np.float32)
    residual = x - np.asarray(grey.filter(ImageFilter.BoxBlur(1)), np.float32)
    rows, cols = np.mgrid[0 : x.shape[0], 0 : x.shape[1]]
    side = x.shape[0] // 8 * 8
    out = []
    for sign in ((rows + cols) % 2, rows % 2, cols % 2):
        product = (residual * (2 * sign - 1))[:side, :side]
        out.append(float(np.abs(product.reshape(side // 8, 8, side // 8, 8).sum((1, 3))).mean()))
    return out


def test_alaska_layout_ids_and_hidden_messages_show(mlebench_data: Path) -> None:
    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import cross_val_predict

    root = prepared(mlebench_data, ALASKA)
    n_train, n_test = DEFAULT_SIZES[ALASKA]
    assert layout(root) == {
        "private/test.csv": 1,
        "public/Cover/": n_train,
        "public/JMiPOD/": n_train,
        "public/JUNIWARD/": n_train,
        "public/Test/": n_test,
        "public/UERD/": n_train,
        "public/sample_submission.csv": 1,
    }
    answers, sample = read(root, "private/test.csv"), read(root, "public/sample_submission.csv")
    assert answers["Id"].tolist() == [f"{k:04d}.jpg" for k in range(1, n_test + 1)]
    assert sample["Id"].tolist() == answers["Id"].tolist() and (sample["Label"] == 0).all()
    assert sorted(p.name for p in (root / "public" / "UERD").iterdir())[0] == "00001.jpg"
    assert 0.3 < answers["Label"].mean() < 0.7
    features = np.array([residual_energy(root / "public" / "Test" / i) for i in answers["Id"]])
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=3000))
    labels = answers["Label"].to_numpy()
    found = cross_val_predict(model, features, labels, cv=3, method="predict_proba")[:, 1]
    assert roc_auc_score(labels, found) > 0.8


# --- DICOM studies (rsna-miccai) ---------------------------------------------------------------

MICCAI = "rsna-miccai-brain-tumor-radiogenomic-classification"


def test_miccai_layout_and_dicom_as_pydicom_reads_it(mlebench_data: Path) -> None:
    import pydicom

    root = prepared(mlebench_data, MICCAI)
    n_train, n_test = DEFAULT_SIZES[MICCAI]
    assert layout(root) == {
        "private/test.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test/": n_test * 4 * 4,  # 4 series of side // 4 = 4 slices
        "public/train/": n_train * 4 * 4,
        "public/train_labels.csv": 1,
    }
    train = pd.read_csv(root / "public/train_labels.csv", dtype=str)
    answers = pd.read_csv(root / "private/test.csv", dtype=str)
    sample = pd.read_csv(root / "public/sample_submission.csv", dtype=str)
    assert list(train.columns) == list(answers.columns) == ["BraTS21ID", "MGMT_value"]
    assert train["BraTS21ID"].str.fullmatch(r"\d{5}").all()
    assert sample["BraTS21ID"].tolist() == answers["BraTS21ID"].tolist()
    assert (sample["MGMT_value"] == "0.5").all() and set(answers["MGMT_value"]) == {"0", "1"}
    patient = answers["BraTS21ID"][0]
    assert sorted(p.name for p in (root / "public/test" / patient).iterdir()) == [
        "FLAIR",
        "T1w",
        "T1wCE",
        "T2w",
    ]
    series = root / "public/test" / patient / "T1wCE"
    slices = [pydicom.dcmread(series / f"Image-{k}.dcm") for k in range(1, 5)]
    assert {d.PatientID for d in slices} == {patient} and {d.Modality for d in slices} == {"MR"}
    assert [int(d.InstanceNumber) for d in slices] == [1, 2, 3, 4]
    assert len({d.SeriesInstanceUID for d in slices}) == 1
    assert slices[0].pixel_array.shape == (16, 16) and slices[0].pixel_array.dtype == np.uint16


def test_miccai_tumour_size_tells_methylation(mlebench_data: Path) -> None:
    import pydicom
    from sklearn.metrics import roc_auc_score

    root = prepared(mlebench_data, MICCAI)
    train = pd.read_csv(root / "public/train_labels.csv", dtype={"BraTS21ID": str})
    volumes = []
    for patient in train["BraTS21ID"]:
        folder = root / "public/train" / patient / "FLAIR"
        stack = np.stack([pydicom.dcmread(p).pixel_array for p in sorted(folder.iterdir())])
        volumes.append(float((stack > 1100).sum()))
    assert roc_auc_score(train["MGMT_value"], -np.array(volumes)) > 0.75


# --- spectrograms (seti) -----------------------------------------------------------------------

SETI = "seti-breakthrough-listen"


def test_seti_layout_and_needles_in_the_on_observations(mlebench_data: Path) -> None:
    from sklearn.metrics import roc_auc_score

    root = prepared(mlebench_data, SETI)
    n_train, n_test = DEFAULT_SIZES[SETI]
    found = layout(root)
    assert found.pop("public/old_leaky_data/") > 0
    assert found == {
        "private/test.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test/": n_test,
        "public/train/": n_train,
        "public/train_labels.csv": 1,
    }
    train, answers = read(root, "public/train_labels.csv"), read(root, "private/test.csv")
    sample = read(root, "public/sample_submission.csv")
    assert list(train.columns) == list(answers.columns) == ["id", "target"]
    assert sample["id"].tolist() == answers["id"].tolist() and (sample["target"] == 0.5).all()
    assert train["id"].str.fullmatch(r"[0-9a-f]{15}").all()
    old = read(root, "public/old_leaky_data/train_labels_old.csv")
    assert set(old["id"]).isdisjoint(pd.concat([train["id"], answers["id"]]))

    strength = []
    for cadence_id in answers["id"]:
        cadence = np.load(root / "public/test" / cadence_id[0] / f"{cadence_id}.npy")
        assert cadence.dtype == np.float16 and cadence.shape == (6, 17, 16)
        on, off = cadence[0::2].astype(np.float32), cadence[1::2].astype(np.float32)
        strength.append(float((on.max(axis=2) - off.max(axis=2)).mean()))
    assert roc_auc_score(answers["target"], strength) > 0.8


# --- iNaturalist 2019 ---------------------------------------------------------------------------

INAT = "inaturalist-2019-fgvc6"


def test_inat_layout_tars_and_species_signal(mlebench_data: Path) -> None:
    import tarfile

    from PIL import Image

    root = prepared(mlebench_data, INAT)
    n_train, n_test = DEFAULT_SIZES[INAT]
    assert sorted(layout(root)) == [
        "private/answers.csv",
        "public/kaggle_sample_submission.csv",
        "public/test2019.json",
        "public/test2019.tar.gz",
        "public/train2019.json",
        "public/train_val2019.tar.gz",
        "public/val2019.json",
    ]
    public = root / "public"
    train = json.loads((public / "train2019.json").read_text())
    test = json.loads((public / "test2019.json").read_text())
    assert sorted(train) == ["annotations", "categories", "images", "info", "licenses"]
    assert sorted(test) == ["images", "info", "licenses"]
    assert len(train["images"]) == n_train and len(test["images"]) == n_test
    answers = read(root, "private/answers.csv")
    sample = read(root, "public/kaggle_sample_submission.csv")
    assert answers["id"].tolist() == [im["id"] for im in test["images"]] == sample["id"].tolist()
    assert (sample["predicted"] == 654).all()
    with tarfile.open(public / "test2019.tar.gz") as tar:  # a plain tar, as upstream
        assert tar.getnames() == [
            im["file_name"].removeprefix("test2019/") for im in test["images"]
        ]
    with tarfile.open(public / "train_val2019.tar.gz") as tar:
        names = tar.getnames()
        assert names == [im["file_name"].removeprefix("train_val2019/") for im in train["images"]]
        pictures = [io.BytesIO(tar.extractfile(name).read()) for name in names]  # type: ignore[union-attr]
    assert Image.open(pictures[0]).format == "JPEG"
    labels = np.array([a["category_id"] for a in train["annotations"]])
    assert cv_accuracy_gain(colour_features(pictures), labels) > 0.3  # type: ignore[arg-type]


# --- NFL player contact ---------------------------------------------------------------------------

NFL = "nfl-player-contact-detection"


def test_nfl_tables_split_by_play_and_contact_follows_distance(mlebench_data: Path) -> None:
    from sklearn.metrics import matthews_corrcoef

    root = prepared(mlebench_data, NFL)
    n_train, n_test = DEFAULT_SIZES[NFL]
    tables = [
        f"public/{s}_{t}.csv"
        for s in ("train", "test")
        for t in ("baseline_helmets", "player_tracking", "video_metadata")
    ]
    assert sorted(layout(root)) == sorted(
        ["private/test.csv", "public/sample_submission.csv", "public/train_labels.csv", *tables]
    )
    train, answers = read(root, "public/train_labels.csv"), read(root, "private/test.csv")
    sample = read(root, "public/sample_submission.csv")
    columns = [
        "contact_id",
        "game_play",
        "datetime",
        "step",
        "nfl_player_id_1",
        "nfl_player_id_2",
        "contact",
    ]
    assert list(train.columns) == list(answers.columns) == columns
    assert len(train) == n_train and len(answers) == n_test
    assert sample["contact_id"].tolist() == answers["contact_id"].tolist()
    assert (sample["contact"] == 0).all()
    assert set(train["game_play"]).isdisjoint(answers["game_play"])
    rebuilt = (
        answers["game_play"]
        + "_"
        + answers["step"].astype(str)
        + "_"
        + answers["nfl_player_id_1"].astype(str)
        + "_"
        + answers["nfl_player_id_2"]
    )
    assert rebuilt.tolist() == answers["contact_id"].tolist()
    pairs = answers[answers["nfl_player_id_2"] != "G"]
    assert (pairs["nfl_player_id_1"] < pairs["nfl_player_id_2"].astype(int)).all()
    assert "G" in set(answers["nfl_player_id_2"]) and set(answers["contact"]) == {0, 1}

    # Contact is what the tracking data shows: two players within a yard of each other.
    tracking = read(root, "public/test_player_tracking.csv")
    where = tracking.set_index(["game_play", "step", "nfl_player_id"])[["x_position", "y_position"]]
    one = where.loc[
        list(zip(pairs["game_play"], pairs["step"], pairs["nfl_player_id_1"], strict=True))
    ]
    two = where.loc[
        list(
            zip(
                pairs["game_play"], pairs["step"], pairs["nfl_player_id_2"].astype(int), strict=True
            )
        )
    ]
    near = np.linalg.norm(one.to_numpy() - two.to_numpy(), axis=1) < 1.0
    assert matthews_corrcoef(pairs["contact"], near) > 0.8


# --- Jigsaw unintended bias ---------------------------------------------------------------------

JIGSAW = "jigsaw-unintended-bias-in-toxicity-classification"


def test_jigsaw_layout_columns_and_words_that_tell_toxicity(mlebench_data: Path) -> None:
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.metrics import roc_auc_score

    from bench_adapters.mlebench.graders.jigsaw_unintended_bias_in_toxicity_classification import (
        IDENTITIES,
    )

    root = prepared(mlebench_data, JIGSAW)
    n_train, n_test = DEFAULT_SIZES[JIGSAW]
    assert layout(root) == {
        "private/test.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test.csv": 1,
        "public/train.csv": 1,
    }
    train, answers = read(root, "public/train.csv"), read(root, "private/test.csv")
    test, sample = read(root, "public/test.csv"), read(root, "public/sample_submission.csv")
    assert train.shape == (n_train, 45) and answers.shape == (n_test, 45)  # upstream asserts 45
    assert list(train.columns[:3]) == ["id", "target", "comment_text"]
    assert set(answers.columns) == set(train.columns) - {"target"} | {"toxicity"}
    assert list(test.columns) == ["id", "comment_text"] and list(sample.columns) == [
        "id",
        "prediction",
    ]
    assert test["id"].tolist() == answers["id"].tolist() == sample["id"].tolist()
    assert (sample["prediction"] == 0.0).all() and answers["id"].min() >= 7_000_000
    for identity in IDENTITIES:  # the metric's every AUC has both classes
        mentioned = answers[identity] >= 0.5
        assert set(answers.loc[mentioned, "toxicity"] >= 0.5) == {True, False}, identity
    assert answers["male"].isna().mean() > 0.5  # most comments carry no identity labels

    words = CountVectorizer().fit(train["comment_text"])
    model = LogisticRegression(max_iter=2000).fit(
        words.transform(train["comment_text"]), train["target"] >= 0.5
    )
    found = model.predict_proba(words.transform(answers["comment_text"]))[:, 1]
    assert roc_auc_score(answers["toxicity"] >= 0.5, found) > 0.9


# --- mammograms (rsna-breast) ------------------------------------------------------------------

BREAST = "rsna-breast-cancer-detection"


def test_breast_layout_breasts_and_masses_that_show(mlebench_data: Path) -> None:
    import pydicom
    from sklearn.metrics import roc_auc_score

    root = prepared(mlebench_data, BREAST)
    n_train, n_test = DEFAULT_SIZES[BREAST]
    train, test = read(root, "public/train.csv"), read(root, "public/test.csv")
    answers = read(root, "private/answers.csv")
    sample = read(root, "public/sample_submission.csv")
    assert layout(root) == {
        "private/answers.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test.csv": 1,
        "public/test_images/": len(test),
        "public/train.csv": 1,
        "public/train_images/": len(train),
    }
    assert train.columns.tolist()[:7] == [
        "site_id",
        "patient_id",
        "image_id",
        "laterality",
        "view",
        "age",
        "cancer",
    ]
    assert len(train.columns) == 14 and test.columns.tolist()[-1] == "prediction_id"
    assert train["patient_id"].nunique() == n_train and test["patient_id"].nunique() == n_test
    assert answers["prediction_id"].tolist() == sorted(set(test["prediction_id"]))
    assert sample["prediction_id"].tolist() == answers["prediction_id"].tolist()
    assert sample["cancer"].iloc[0] == pytest.approx(train["cancer"].mean())
    assert answers["cancer"].sum() >= 2

    brightest, syntaxes = [], []
    for row in train.itertuples():
        path = root / "public/train_images" / str(row.patient_id) / f"{row.image_id}.dcm"
        scan = pydicom.dcmread(path)
        assert scan.ImageLaterality == row.laterality and scan.ViewPosition == row.view
        brightest.append(float(np.percentile(scan.pixel_array, 99)))
        syntaxes.append(scan.file_meta.TransferSyntaxUID.name)
    assert roc_auc_score(train["cancer"], brightest) > 0.9
    # every other one compressed, as Kaggle's are (RLE here; pydicom decodes it unaided)
    assert set(syntaxes) == {"Explicit VR Little Endian", "RLE Lossless"}


# --- the grader sanity check on every B1 fixture ----------------------------------------------

B1 = [CASSAVA, CDISCOUNT, IWILDCAM, ALASKA, MICCAI, SETI, INAT, NFL, JIGSAW, BREAST]


def test_check_passes_gold_sample_and_corrupted_copies(
    mlebench_data: Path, mlebench_checkout: Path, tmp_path: Path
) -> None:
    """``python -m baselines check``'s expectations on each fixture and stand-in leaderboard:
    the answers win gold, the sample is valid and not above the median, corrupted copies are
    rejected with a message; the baselines are not run here, which the check reports as
    skipped (each baseline's smoke check is tests/baselines/mlebench/'s)."""
    from baselines.check import CheckOptions, check_tasks

    options = CheckOptions(
        out_dir=tmp_path,
        task_options={"data_dir": mlebench_data, "mlebench_dir": mlebench_checkout},
        baselines=False,
    )
    report = check_tasks([f"mlebench/{cid}" for cid in B1], options)
    for task in report.tasks:
        assert task.status == "checked", (task.task, task.reason)
        got = {(o.submission, o.expectation): o.status for o in task.outcomes}
        assert got == {
            ("gold", "valid"): "pass",
            ("gold", "gold medal"): "pass",
            ("sample", "valid"): "pass",
            ("sample", "not above median"): "pass",
            ("baseline", "valid, above median"): "skip",
            ("missing-column", "invalid, with a message"): "pass",
            ("wrong-row-count", "invalid, with a message"): "pass",
        }, (task.task, [o for o in task.outcomes if o.status != "pass"])


def test_the_rle_writer_round_trips_every_kind_of_row(tmp_path: Path) -> None:
    """PackBits runs, literals over 128 bytes, single bytes and flat rows decode as written."""
    import pydicom

    from bench_adapters.mlebench.synthetic.dicom import MR_IMAGE_STORAGE, write_dicom

    rng = np.random.default_rng(3)
    for shape in [(1, 1), (5, 7), (3, 300), (64, 64)]:
        pixels = rng.integers(0, 4096, size=shape).astype(np.uint16)
        pixels[:, : min(3, shape[1])] = 7  # a run at the start of each row
        path = tmp_path / f"{shape[0]}x{shape[1]}.dcm"
        write_dicom(path, pixels, MR_IMAGE_STORAGE, "2.25.1", {}, compressed=True)
        scan = pydicom.dcmread(path)
        assert scan.file_meta.TransferSyntaxUID.name == "RLE Lossless"
        assert np.array_equal(scan.pixel_array, pixels), shape
    flat = np.zeros((2, 260), np.uint16)
    write_dicom(tmp_path / "flat.dcm", flat, MR_IMAGE_STORAGE, "2.25.2", {}, compressed=True)
    assert np.array_equal(pydicom.dcmread(tmp_path / "flat.dcm").pixel_array, flat)
