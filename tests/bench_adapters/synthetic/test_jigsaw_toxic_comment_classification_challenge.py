"""jigsaw-toxic-comment-classification-challenge: upstream's layout (Kaggle's test labels
with -1 for unscored rows) and label words that show."""

from __future__ import annotations

from pathlib import Path

from sklearn.feature_extraction.text import CountVectorizer

from bench_adapters.mlebench.synthetic import DEFAULT_SIZES
from tests.bench_adapters.synthetic.helpers import cv_auc, layout, prepared, read

CID = "jigsaw-toxic-comment-classification-challenge"
CLASSES = ["toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate"]


def test_layout_columns_and_unscored_rows(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    n_train = DEFAULT_SIZES[CID][0]
    assert layout(root) == {
        "private/test.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test.csv": 1,
        "public/train.csv": 1,
    }
    train, test = read(root, "public/train.csv"), read(root, "public/test.csv")
    answers, sample = read(root, "private/test.csv"), read(root, "public/sample_submission.csv")
    assert list(train.columns) == ["id", "comment_text", *CLASSES] and len(train) == n_train
    assert list(test.columns) == ["id", "comment_text"]
    assert list(answers.columns) == list(sample.columns) == ["id", *CLASSES]
    assert test["id"].tolist() == answers["id"].tolist() == sample["id"].tolist()
    assert (sample[CLASSES] == 0.5).all().all() and train["id"].str.fullmatch(r"[0-9a-f]{16}").all()
    assert not set(train["id"]) & set(test["id"])
    unscored = (answers[CLASSES] == -1).all(axis=1)
    assert 0.3 < unscored.mean() < 0.8 and set(answers.loc[~unscored, CLASSES].stack()) == {0, 1}
    for name in CLASSES:  # both classes among the scored rows
        assert set(answers.loc[~unscored, name]) == {0, 1}, name
    assert (train.loc[train["threat"] == 1, "toxic"] == 1).all()
    assert train["comment_text"].str.contains("\n").any()


def test_threat_words_show(mlebench_data: Path) -> None:
    train = read(prepared(mlebench_data, CID), "public/train.csv")
    counts = CountVectorizer().fit_transform(train["comment_text"]).toarray().astype(float)
    assert cv_auc(counts, train["toxic"].to_numpy()) > 0.8
