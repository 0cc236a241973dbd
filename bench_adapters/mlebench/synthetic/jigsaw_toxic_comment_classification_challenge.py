"""jigsaw-toxic-comment-classification-challenge: talk-page comments with six toxicity labels
(shares as on Kaggle: toxic ~10%, the others 0.3-5%). Each label has its own words (threats:
"hurt", "find you"...; identity hate: slurs against made-up peoples, "martians"...); the
sub-labels mostly come with ``toxic``, as on Kaggle.

Public: ``train.csv`` (``id,comment_text`` + the six labels), ``test.csv``
(``id,comment_text``), ``sample_submission.csv`` (``id`` + the six, each 0.5). Private:
``test.csv``, Kaggle's ``test_labels.csv``: ``id`` + the six, with -1 in every class for the
rows Kaggle did not score (about 58%). Ids are 16 hex digits; comments may span lines.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, at_least, hex_ids
from .words import sentence

CLASSES = ["toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate"]
SHARES = {
    "severe_toxic": 0.1,
    "obscene": 0.55,
    "threat": 0.03,
    "insult": 0.5,
    "identity_hate": 0.09,
}
"""Share of toxic comments that also carry each sub-label."""
WORDS = {
    "toxic": ["hate", "awful", "garbage", "trash", "shut", "worst"],
    "severe_toxic": ["die", "scum", "vermin", "filth"],
    "obscene": ["crap", "damn", "bloody", "bollocks", "arse"],
    "threat": ["hurt", "kill", "hunt", "destroy", "punish"],
    "insult": ["idiot", "moron", "fool", "loser", "clown"],
    "identity_hate": ["martians", "venusians", "plutonians"],
}
TOXIC_SHARE = 0.096
UNSCORED_SHARE = 0.58


def labels(rng: np.random.Generator, n: int) -> np.ndarray:
    out = np.zeros((n, len(CLASSES)), np.int64)
    out[:, 0] = rng.random(n) < TOXIC_SHARE
    for k, name in enumerate(CLASSES[1:], start=1):
        out[:, k] = out[:, 0] & (rng.random(n) < SHARES[name])
    for k in range(len(CLASSES)):  # a few of each, however small the fixture
        short = 3 - int(out[:, k].sum())
        if short > 0:
            rows = rng.choice(n, short, replace=False)
            out[rows, k] = 1
            out[rows, 0] = 1
    return out


def comment(rng: np.random.Generator, row: np.ndarray) -> str:
    marked = [w for k, name in enumerate(CLASSES) if row[k] for w in WORDS[name]]
    text = sentence(rng, int(rng.integers(8, 40)), marked, 0.15)
    if rng.random() < 0.2:
        text = text.replace(" ", "\n", 1)
    return text


def frame(rng: np.random.Generator, ids: np.ndarray, y: np.ndarray) -> pd.DataFrame:
    out = pd.DataFrame({"id": ids, "comment_text": [comment(rng, row) for row in y]})
    out[CLASSES] = y
    return out


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    ids = hex_ids(rng, size.n_train + size.n_test, 16)
    train = frame(rng, ids[: size.n_train], labels(rng, size.n_train))
    scored = at_least(rng.random(size.n_test) >= UNSCORED_SHARE, 10, rng).astype(bool)
    y_test = np.zeros((size.n_test, len(CLASSES)), np.int64)
    y_test[scored] = labels(rng, int(scored.sum()))
    test = frame(rng, ids[size.n_train :], y_test)
    answers = test.drop(columns="comment_text")
    answers.loc[~scored, CLASSES] = -1
    train.to_csv(public / "train.csv", index=False)
    test[["id", "comment_text"]].to_csv(public / "test.csv", index=False)
    test[["id"]].assign(**{c: 0.5 for c in CLASSES}).to_csv(
        public / "sample_submission.csv", index=False
    )
    answers.to_csv(private / "test.csv", index=False)
