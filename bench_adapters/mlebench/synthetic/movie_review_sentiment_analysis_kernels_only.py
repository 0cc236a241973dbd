"""movie-review-sentiment-analysis-kernels-only: phrases of movie-review sentences, each rated
0 (negative) to 4 (positive), as in the Rotten Tomatoes treebank: a sentence and many of its
sub-phrases share a ``SentenceId``. A phrase's rating follows the praise and complaint words
it holds ("superb", "tedious"...), so a bag of words learns it.

Public: ``train.tsv.zip`` and ``test.tsv.zip`` (each one tab-separated file of that name:
``PhraseId,SentenceId,Phrase,Sentiment``, the test without ``Sentiment``) and
``sampleSubmission.csv`` (``PhraseId,Sentiment`` = 2). Private: ``answers.csv``, the test rows
with ``Sentiment`` (comma-separated). Ids count from 1 in sentence order; rows are in the
shuffled order of upstream's split.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, split
from .words import FILLER

PRAISE = ["superb", "moving", "charming", "delightful", "gripping", "witty", "brilliant"]
COMPLAINT = ["tedious", "dull", "clumsy", "lifeless", "pointless", "mediocre", "awful"]
TOPICS = ["film", "movie", "story", "cast", "script", "director", "ending", "plot", "scene"]


def _sentence(rng: np.random.Generator) -> list[str]:
    words = list(rng.choice(FILLER + TOPICS, int(rng.integers(6, 16))))
    for _ in range(int(rng.integers(1, 5))):
        pool = PRAISE if rng.random() < 0.5 else COMPLAINT
        words[int(rng.integers(len(words)))] = str(rng.choice(pool))
    return words


def _rating(words: list[str]) -> int:
    polarity = sum(w in PRAISE for w in words) - sum(w in COMPLAINT for w in words)
    return int(np.clip(polarity, -2, 2)) + 2


def _phrases(rng: np.random.Generator, n: int) -> pd.DataFrame:
    """``n`` phrases: whole sentences, each followed by some of its contiguous spans."""
    rows: list[tuple[int, str, int]] = []
    sentence_id = 0
    while len(rows) < n:
        sentence_id += 1
        words = _sentence(rng)
        spans = [(0, len(words))]
        for _ in range(int(rng.integers(2, 12))):
            start = int(rng.integers(len(words)))
            spans.append((start, int(rng.integers(start + 1, len(words) + 1))))
        for start, end in spans[: n - len(rows)]:
            rows.append((sentence_id, " ".join(words[start:end]), _rating(words[start:end])))
    frame = pd.DataFrame(rows, columns=["SentenceId", "Phrase", "Sentiment"])
    frame.insert(0, "PhraseId", np.arange(1, n + 1))
    return frame


def _zip_tsv(frame: pd.DataFrame, archive: Path, name: str) -> None:
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(name, frame.to_csv(sep="\t", index=False))


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    frame = _phrases(rng, size.n_train + size.n_test)
    train_rows, test_rows = split(rng, len(frame), size.n_test)
    train, answers = frame.iloc[train_rows], frame.iloc[test_rows]
    _zip_tsv(train, public / "train.tsv.zip", "train.tsv")
    _zip_tsv(answers.drop(columns="Sentiment"), public / "test.tsv.zip", "test.tsv")
    sample = answers[["PhraseId"]].assign(Sentiment=2)
    sample.to_csv(public / "sampleSubmission.csv", index=False)
    answers.to_csv(private / "answers.csv", index=False)
