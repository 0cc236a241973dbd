"""detecting-insults-in-social-commentary: short online comments; ``Insult`` is 1 (about a
quarter, as on Kaggle) when a comment aims insulting words at someone ("you" ... "idiot"),
which plain comments seldom use.

Public: ``train.csv`` (``Insult,Date,Comment``), ``test.csv`` (``Date,Comment``),
``sample_submission_null.csv`` (``Insult,Date,Comment`` with ``Insult`` = 0). Private:
``test.csv`` (``Insult,Date,Comment,Usage``) and ``gold_submission.csv``
(``Insult,Date,Comment``). There is no split: upstream takes Kaggle's labelled test set as it
is. Dates look like ``20120618192155Z`` (some blank); comments keep Kaggle's quoting (the text
inside literal double quotes, escapes such as ``\\n`` written out) and are unique, since the
grader matches rows by comment.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, at_least
from .words import sentence, unique_texts

INSULTS = [
    "idiot",
    "moron",
    "stupid",
    "loser",
    "pathetic",
    "clown",
    "dumb",
    "ignorant",
    "coward",
    "fool",
]
TARGETS = ["you", "you're", "your", "ur"]


def comment(rng: np.random.Generator, insult: bool) -> str:
    n = int(rng.integers(6, 30))
    if insult:
        text = sentence(rng, n, [*INSULTS, *TARGETS], 0.2)
    else:
        text = sentence(rng, n, INSULTS, 0.01) if rng.random() < 0.1 else sentence(rng, n)
    if rng.random() < 0.15:
        text = text.replace(" ", "\\n", 1)  # Kaggle's comments keep escapes as text
    return f'"{text}"'


def dates(rng: np.random.Generator, n: int) -> np.ndarray:
    start = np.datetime64("2012-03-01T00:00:00")
    when = start + rng.integers(0, 120 * 86400, n).astype("timedelta64[s]")
    text = np.char.replace(np.char.replace(np.char.replace(
        np.datetime_as_string(when, unit="s"), "-", ""), ":", ""), "T", "")  # fmt: skip
    out = np.char.add(text, "Z").astype(object)
    out[rng.random(n) < 0.2] = np.nan
    return out


def frame(rng: np.random.Generator, n: int, taken: set[str]) -> pd.DataFrame:
    labels = at_least(rng.random(n) < 0.26, 2, rng)
    texts = []
    for label in labels:
        (text,) = unique_texts(rng, functools.partial(comment, rng, bool(label)), 1, taken)
        taken.add(text)
        texts.append(text)
    return pd.DataFrame({"Insult": labels, "Date": dates(rng, n), "Comment": texts})


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    taken: set[str] = set()
    train = frame(rng, size.n_train, taken)
    test = frame(rng, size.n_test, taken)
    test["Usage"] = rng.choice(["PublicTest", "PrivateTest"], size.n_test, p=[0.3, 0.7])
    train.to_csv(public / "train.csv", index=False)
    test.to_csv(private / "test.csv", index=False)
    gold = test[["Insult", "Date", "Comment"]]
    gold.to_csv(private / "gold_submission.csv", index=False)
    gold.drop(columns="Insult").to_csv(public / "test.csv", index=False)
    gold.assign(Insult=0).to_csv(public / "sample_submission_null.csv", index=False)
