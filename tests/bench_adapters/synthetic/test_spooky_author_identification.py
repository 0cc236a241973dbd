"""spooky-author-identification: upstream's layout (one-hot answers, Kaggle's prior sample)
and authors whose words tell them apart."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score

from bench_adapters.mlebench.synthetic import DEFAULT_SIZES
from tests.bench_adapters.synthetic.helpers import layout, prepared, read

CID = "spooky-author-identification"


def test_layout_ids_and_one_hot_answers(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    n_train, n_test = DEFAULT_SIZES[CID]
    assert layout(root) == {
        "private/test.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test.csv": 1,
        "public/train.csv": 1,
    }
    train, test = read(root, "public/train.csv"), read(root, "public/test.csv")
    answers, sample = read(root, "private/test.csv"), read(root, "public/sample_submission.csv")
    assert list(train.columns) == ["id", "text", "author"] and len(train) == n_train
    assert list(test.columns) == ["id", "text"] and len(test) == n_test
    assert list(answers.columns) == list(sample.columns) == ["id", "EAP", "HPL", "MWS"]
    assert test["id"].tolist() == answers["id"].tolist() == sample["id"].tolist()
    assert train["id"].str.fullmatch(r"id\d{5}").all()
    assert (answers[["EAP", "HPL", "MWS"]].sum(axis=1) == 1).all() and (
        answers[["EAP", "HPL", "MWS"]].sum() > 0
    ).all()
    assert np.allclose(
        sample.iloc[0, 1:].to_numpy(float),
        [0.403493538995863, 0.287808366106543, 0.308698094897594],
    )


def test_word_choice_tells_the_author(mlebench_data: Path) -> None:
    train = read(prepared(mlebench_data, CID), "public/train.csv")
    x = CountVectorizer().fit_transform(train["text"])
    accuracy = cross_val_score(LogisticRegression(max_iter=2000), x, train["author"], cv=3).mean()
    assert accuracy > 0.6
