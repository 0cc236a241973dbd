"""ranzcr-clip-catheter-line-classification: upstream's layout (11 labels and PatientID in
train and answers, 9 graded columns in the sample, segment annotations) and labels that
follow the drawn tubes."""

from __future__ import annotations

import ast
from pathlib import Path

from PIL import Image

from bench_adapters.mlebench.graders.ranzcr_clip_catheter_line_classification import CLASSES
from bench_adapters.mlebench.synthetic import DEFAULT_SIZES
from tests.bench_adapters.synthetic.helpers import layout, prepared, read

CID = "ranzcr-clip-catheter-line-classification"
LABELS = [*CLASSES, "CVC - Normal", "Swan Ganz Catheter Present"]


def test_layout_columns_and_uids(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    n_train, n_test = DEFAULT_SIZES[CID]
    assert layout(root) == {
        "private/test.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test/": n_test,
        "public/train/": n_train,
        "public/train.csv": 1,
        "public/train_annotations.csv": 1,
    }
    train, answers = read(root, "public/train.csv"), read(root, "private/test.csv")
    sample = read(root, "public/sample_submission.csv")
    assert (
        list(train.columns) == list(answers.columns) == ["StudyInstanceUID", *LABELS, "PatientID"]
    )
    assert (
        list(sample.columns) == ["StudyInstanceUID", *CLASSES]
        and (sample[CLASSES] == 0).all().all()
    )
    assert sample["StudyInstanceUID"].tolist() == answers["StudyInstanceUID"].tolist()
    assert (
        train["StudyInstanceUID"].str.fullmatch(r"1\.2\.826\.0\.1\.3680043\.8\.498\.\d{38}").all()
    )
    assert (
        train["PatientID"].str.fullmatch(r"[0-9a-f]{9}").all()
        and train["PatientID"].duplicated().any()
    )
    for name in CLASSES:  # every graded class present and absent in the answers
        assert set(answers[name]) == {0, 1}, name
    assert (
        Image.open(root / "public" / "test" / f"{answers['StudyInstanceUID'][0]}.jpg").mode == "L"
    )


def test_annotations_are_the_labelled_tubes(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    train = read(root, "public/train.csv").set_index("StudyInstanceUID")
    notes = read(root, "public/train_annotations.csv")
    assert list(notes.columns) == ["StudyInstanceUID", "label", "data"] and len(notes)
    for uid, label, data in notes.itertuples(index=False):
        assert train.loc[uid, label] == 1
        points = ast.literal_eval(data)
        assert len(points) >= 2 and all(len(p) == 2 for p in points)
