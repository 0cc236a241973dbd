"""detecting-insults-in-social-commentary: upstream's layout (no split; gold submission and
``Usage`` in private), Kaggle's quoting, unique comments, and insulting words that show."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer

from bench_adapters.mlebench.synthetic import DEFAULT_SIZES
from tests.bench_adapters.synthetic.helpers import cv_auc, layout, prepared, read

CID = "detecting-insults-in-social-commentary"


def test_layout_columns_and_comments(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    assert layout(root) == {
        "private/gold_submission.csv": 1,
        "private/test.csv": 1,
        "public/sample_submission_null.csv": 1,
        "public/test.csv": 1,
        "public/train.csv": 1,
    }
    train, test = read(root, "public/train.csv"), read(root, "public/test.csv")
    answers, gold = read(root, "private/test.csv"), read(root, "private/gold_submission.csv")
    sample = read(root, "public/sample_submission_null.csv")
    assert (
        list(train.columns)
        == list(gold.columns)
        == list(sample.columns)
        == ["Insult", "Date", "Comment"]
    )
    assert list(test.columns) == ["Date", "Comment"]
    assert list(answers.columns) == ["Insult", "Date", "Comment", "Usage"]
    assert len(train) == DEFAULT_SIZES[CID][0] and len(answers) == DEFAULT_SIZES[CID][1]
    assert test.equals(answers.drop(columns=["Insult", "Usage"]))  # upstream's own check
    assert gold.equals(answers.drop(columns="Usage")) and (sample["Insult"] == 0).all()
    assert set(answers["Usage"]) == {"PublicTest", "PrivateTest"}
    assert answers["Comment"].is_unique and not set(answers["Comment"]) & set(train["Comment"])
    assert train["Comment"].str.match(r'^".*"$').all()  # the text inside literal quotes
    assert train["Date"].dropna().str.fullmatch(r"\d{14}Z").all() and train["Date"].isna().any()
    assert 0.15 < train["Insult"].mean() < 0.4


def test_insulting_words_show(mlebench_data: Path) -> None:
    train = read(prepared(mlebench_data, CID), "public/train.csv")
    counts = CountVectorizer().fit_transform(train["Comment"]).toarray().astype(float)
    assert cv_auc(counts, train["Insult"].to_numpy()) > 0.8
    assert np.isfinite(counts).all()
