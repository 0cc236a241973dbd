"""spooky-author-identification: sentences by three authors (EAP, HPL, MWS, in Kaggle's
shares); each author favours words of their own (Poe: "raven", "tomb"...; Lovecraft:
"eldritch", "cyclopean"...; Shelley: "wretched", "creature"...) among common ones.

Public: ``train.csv`` (``id,text,author``), ``test.csv`` (``id,text``),
``sample_submission.csv`` (``id,EAP,HPL,MWS`` with Kaggle's priors 0.403..., 0.287...,
0.308...). Private: ``test.csv``, the authors one-hot (``id,EAP,HPL,MWS`` as 0/1). Ids look
like ``id26305``; rows are in the shuffled order of upstream's split.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, split
from .words import FILLER, sentence

AUTHORS = ["EAP", "HPL", "MWS"]
SHARES = [0.403, 0.288, 0.309]
PRIORS = {"EAP": 0.403493538995863, "HPL": 0.287808366106543, "MWS": 0.308698094897594}
WORDS = {
    "EAP": [
        "raven",
        "tomb",
        "melancholy",
        "ghastly",
        "premature",
        "burial",
        "heart",
        "beating",
        "sepulchre",
        "pendulum",
    ],
    "HPL": [
        "eldritch",
        "cyclopean",
        "nameless",
        "gibbous",
        "abyss",
        "ancient",
        "whateley",
        "innsmouth",
        "blasphemous",
    ],
    "MWS": [
        "wretched",
        "creature",
        "affection",
        "misery",
        "countenance",
        "beloved",
        "despair",
        "tears",
        "geneva",
    ],
}
SHARED = ["dark", "night", "dread", "horror", "silent", "strange", "death", "fear", "shadow"]


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    train_rows, test_rows = split(rng, n, size.n_test)
    authors = rng.choice(3, n, p=SHARES)
    authors[test_rows[:3]] = [0, 1, 2][: len(test_rows)]  # every author in the answers
    vocabulary = [*FILLER, *SHARED]
    texts = [
        sentence(rng, int(rng.integers(8, 35)), WORDS[AUTHORS[a]], 0.08, vocabulary).capitalize()
        + "."
        for a in authors
    ]
    ids = [f"id{k:05d}" for k in rng.choice(100_000, n, replace=False)]
    frame = pd.DataFrame({"id": ids, "text": texts, "author": np.array(AUTHORS)[authors]})
    train, test = frame.iloc[train_rows], frame.iloc[test_rows]
    one_hot = test[["id"]].copy()
    for name in AUTHORS:
        one_hot[name] = (test["author"] == name).astype(np.int64)
    train.to_csv(public / "train.csv", index=False)
    test.drop(columns="author").to_csv(public / "test.csv", index=False)
    one_hot.assign(**PRIORS).to_csv(public / "sample_submission.csv", index=False)
    one_hot.to_csv(private / "test.csv", index=False)
