"""random-acts-of-pizza: upstream's layout (JSON lists and their zips, Kaggle's train and
test fields) and an outcome that text and metadata predict."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np

from bench_adapters.mlebench.synthetic import DEFAULT_SIZES
from bench_adapters.mlebench.synthetic.random_acts_of_pizza import TEST_FIELDS
from tests.bench_adapters.synthetic.helpers import cv_auc, layout, prepared, read

CID = "random-acts-of-pizza"


def test_layout_fields_and_answers(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    n_train, n_test = DEFAULT_SIZES[CID]
    assert layout(root) == {
        "private/test.csv": 1,
        "public/sampleSubmission.csv": 1,
        "public/test.json": 1,
        "public/test.zip": 1,  # upstream: shutil.make_archive(public / "test", "zip", ...)
        "public/train.json": 1,
        "public/train.zip": 1,
    }
    text = (root / "public" / "train.json").read_text()
    train, test = json.loads(text), json.loads((root / "public" / "test.json").read_text())
    assert text.startswith('[\n    {\n        "')  # json.dump(indent=4)
    assert len(train) == n_train and len(test) == n_test
    assert len(train[0]) == 32 and set(test[0]) == set(TEST_FIELDS) and len(TEST_FIELDS) == 17
    assert isinstance(train[0]["requester_received_pizza"], bool)
    with zipfile.ZipFile(root / "public" / "train.zip") as zf:
        assert zf.namelist() == ["train.json"] and json.loads(zf.read("train.json")) == train
    answers, sample = read(root, "private/test.csv"), read(root, "public/sampleSubmission.csv")
    assert (
        list(answers.columns) == list(sample.columns) == ["request_id", "requester_received_pizza"]
    )
    assert (
        answers["request_id"].tolist()
        == [r["request_id"] for r in test]
        == sample["request_id"].tolist()
    )
    assert (
        set(answers["requester_received_pizza"]) == {0, 1}
        and (sample["requester_received_pizza"] == 0).all()
    )
    assert all(r["request_id"].startswith("t3_") for r in train)


def test_metadata_predicts_the_outcome(mlebench_data: Path) -> None:
    train = json.loads((prepared(mlebench_data, CID) / "public" / "train.json").read_text())
    fields = ["requester_account_age_in_days_at_request", "requester_number_of_comments_at_request",
              "requester_upvotes_plus_downvotes_at_request"]  # fmt: skip
    x = np.log1p(np.array([[r[f] for f in fields] for r in train], float).clip(0))
    y = np.array([r["requester_received_pizza"] for r in train], int)
    assert cv_auc(x, y) > 0.65
