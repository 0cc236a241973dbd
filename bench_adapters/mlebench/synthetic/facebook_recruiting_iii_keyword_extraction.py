"""facebook-recruiting-iii-keyword-extraction: programming questions (title and HTML body)
with 1-5 tags each (Kaggle's shares of tag counts), drawn from a vocabulary whose popularity
falls off as on Stack Exchange (``c#``, ``java``, ``php``... first). A tag's name shows up in
the title about half the time and in the body most of the time, among filler words: the
signal a model learns.

Public: ``train.csv`` (``Id,Title,Body,Tags``), ``test.csv`` (``Id,Title,Body``),
``sample_submission.csv`` (the test table with ``Tags`` = ``javascript c# python php java``,
as upstream writes it). Private: ``test.csv`` (``Id,Title,Body,Tags``). Ids are 1 to n in
Kaggle's file order, so both tables are in the shuffled order of upstream's split. Bodies are
kept short (one paragraph of 10-40 words, a sixth of a real question's) so that the full size
(6,034,195 questions) stays around 1.3 GB on disk; rows are written in chunks.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, spans, split, write_csv
from .words import FILLER

SAMPLE_TAGS = "javascript c# python php java"
TAG_COUNT_SHARES = [0.14, 0.27, 0.29, 0.19, 0.11]
"""Share of questions with 1, 2, 3, 4 and 5 tags."""
POPULAR_TEXT = (
    "c# java php javascript android jquery c++ python iphone asp.net mysql html .net ios "
    "objective-c sql css linux ruby-on-rails windows c sql-server ruby wpf xml ajax database "
    "regex windows-7 asp.net-mvc django xcode osx arrays vb.net eclipse json facebook "
    "ruby-on-rails-3 ubuntu performance networking string multithreading winforms security "
    "asp.net-mvc-3 bash visual-studio wordpress web-services html5 apache linq "
    "sql-server-2008 mac git node.js spring image algorithm oracle forms excel tsql "
    "entity-framework flash actionscript-3 hibernate java-ee silverlight wcf file "
    "visual-studio-2010 sqlite php5 r perl matlab api shell unix google-app-engine swing qt "
    "cocoa-touch mongodb postgresql delphi flex gui list class math apache2 magento debugging"
)
POPULAR = POPULAR_TEXT.split()
SUFFIXES = ["api", "plugin", "2.7", "ui", "3", "events", "config", "testing", "orm", "cli"]
CHUNK = 200_000


def vocabulary(n_questions: int) -> list[str]:
    """About one tag per 1,200 questions (100 at least): the popular ones, then variants."""
    size = min(max(len(POPULAR), n_questions // 1_200), len(POPULAR) * (1 + len(SUFFIXES)))
    tags = list(POPULAR)
    for suffix in SUFFIXES:
        tags.extend(f"{tag}-{suffix}" for tag in POPULAR)
    return tags[:size]


def questions(
    rng: np.random.Generator, ids: np.ndarray, tags: list[str], popularity: np.ndarray
) -> pd.DataFrame:
    n = len(ids)
    counts = rng.choice(5, n, p=TAG_COUNT_SHARES) + 1
    picks = rng.choice(len(tags), (n, 8), p=popularity)
    title_len, body_len = rng.integers(4, 11, n), rng.integers(10, 41, n)
    filler = np.array(FILLER)[rng.integers(0, len(FILLER), (n, 50))]
    in_title, in_body = rng.random((n, 5)) < 0.5, rng.random((n, 5)) < 0.8
    titles, bodies, labels = [], [], []
    for i in range(n):
        chosen = [tags[k] for k in dict.fromkeys(picks[i].tolist())][: counts[i]]
        words = filler[i].tolist()
        title = words[: title_len[i]] + [t for t, m in zip(chosen, in_title[i], strict=False) if m]
        body = words[10 : 10 + body_len[i]]
        for t, m in zip(chosen, in_body[i], strict=False):
            if m:
                body.insert(int(rng.integers(len(body) + 1)), t)
        titles.append(" ".join(title).capitalize() + "?")
        bodies.append(f"<p>{' '.join(body)}.</p>\n")
        labels.append(" ".join(chosen))
    return pd.DataFrame({"Id": ids, "Title": titles, "Body": bodies, "Tags": labels})


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    tags = vocabulary(n)
    popularity = 1 / np.arange(1, len(tags) + 1) ** 0.9
    popularity /= popularity.sum()
    train_rows, test_rows = split(rng, n, size.n_test)

    def chunks(rows: np.ndarray) -> Iterator[pd.DataFrame]:
        for part in spans(len(rows), CHUNK):
            yield questions(rng, rows[part] + 1, tags, popularity)

    write_csv(public / "train.csv", chunks(train_rows))
    paths = (public / "test.csv", public / "sample_submission.csv", private / "test.csv")
    for part in spans(len(test_rows), CHUNK):
        frame = questions(rng, test_rows[part] + 1, tags, popularity)
        mode, header = ("w", True) if part.start == 0 else ("a", False)
        frame.drop(columns="Tags").to_csv(paths[0], index=False, mode=mode, header=header)
        frame.assign(Tags=SAMPLE_TAGS).to_csv(paths[1], index=False, mode=mode, header=header)
        frame.to_csv(paths[2], index=False, mode=mode, header=header)
