"""What the two text-normalization generators share: sentences of typed tokens, the split by
sentence, and upstream's files (every non-numeric field quoted; public files only as zips).

A language module gives ``token(rng) -> (class, before, after)`` for its non-plain tokens and
its plain words; ``write_textnorm`` does the rest. Sizes count tokens (rows): sentences are
drawn until the train and test row counts are met exactly (the last sentence is cut short).
"""

from __future__ import annotations

import csv
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size

Token = tuple[str, str, str]
"""(class, before, after)."""
SPECIAL_SHARE = 0.12  # share of tokens that are not plain words or punctuation


def sentences(
    rng: np.random.Generator,
    n_rows: int,
    words: Sequence[str],
    special: Callable[[np.random.Generator], Token],
) -> list[list[Token]]:
    """Sentences whose token counts add up to ``n_rows``: plain words, special tokens, and
    punctuation (a comma now and then, a full stop at the end)."""
    out: list[list[Token]] = []
    left = n_rows
    while left > 0:
        tokens: list[Token] = []
        for _ in range(int(rng.integers(4, 20))):
            if rng.random() < SPECIAL_SHARE:
                tokens.append(special(rng))
            else:
                word = str(rng.choice(words))
                tokens.append(("PLAIN", word, word))
            if rng.random() < 0.08:
                tokens.append(("PUNCT", ",", ","))
        tokens.append(("PUNCT", ".", "."))
        out.append(tokens[:left])
        left -= len(out[-1])
    return out


def frame(sents: list[list[Token]]) -> pd.DataFrame:
    rows = [(s, t, *token) for s, tokens in enumerate(sents) for t, token in enumerate(tokens)]
    return pd.DataFrame(rows, columns=["sentence_id", "token_id", "class", "before", "after"])


def to_csv(frame: pd.DataFrame, path: Path) -> None:
    frame.to_csv(path, index=False, quotechar='"', quoting=csv.QUOTE_NONNUMERIC)


def zipped(frame: pd.DataFrame, public: Path, name: str) -> None:
    """``public/<name>.zip`` holding ``<name>``; the CSV itself is not kept (as upstream)."""
    path = public / name
    to_csv(frame, path)
    with zipfile.ZipFile(public / f"{name}.zip", "w") as zf:
        zf.write(path, arcname=name)
    path.unlink()


def write_textnorm(
    public: Path,
    private: Path,
    size: Size,
    rng: np.random.Generator,
    language: str,
    words: Sequence[str],
    special: Callable[[np.random.Generator], Token],
) -> None:
    train = frame(sentences(rng, size.n_train, words, special))
    answers = frame(sentences(rng, size.n_test, words, special))
    test = answers.drop(columns=["after", "class"])
    ids = answers["sentence_id"].astype(str) + "_" + answers["token_id"].astype(str)
    solution = pd.DataFrame({"id": ids, "after": answers["after"]})
    sample = pd.DataFrame({"id": ids, "after": test["before"]})
    to_csv(solution, private / "answers.csv")
    to_csv(sample, private / "sample_submission.csv")
    zipped(train, public, f"{language}_train.csv")
    zipped(test, public, f"{language}_test_2.csv")
    zipped(sample, public, f"{language}_sample_submission_2.csv")
