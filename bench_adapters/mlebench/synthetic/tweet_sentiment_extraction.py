"""tweet-sentiment-extraction: short tweets labelled neutral, positive or negative (Kaggle's
shares), and the span of the tweet that carries the sentiment.

A positive or negative tweet holds one phrase of its sentiment ("so happy", "hate it"...)
among common words, sometimes with an @mention, a link or a trailing "!"; its
``selected_text`` is that phrase, now and then with a neighbouring word. A neutral tweet has no
such phrase and its ``selected_text`` is the whole text, as in Kaggle's data. Some texts start
with a space, as many of Kaggle's do.

Public: ``train.csv`` (``textID,text,selected_text,sentiment``), ``test.csv`` (``textID,text,
sentiment``), ``sample_submission.csv`` (``textID,selected_text`` with the text left empty).
Private: ``test.csv`` (all four columns). Ids are 10 hex digits; rows are in the shuffled order
of upstream's split. No ``selected_text`` is empty (an empty answer and an empty prediction
would make upstream's grade divide by zero).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, hex_ids, split
from .words import FILLER

SENTIMENTS = ["neutral", "positive", "negative"]
SHARES = [0.405, 0.313, 0.282]
PHRASES = {
    "positive": ["so happy", "love it", "great day", "awesome", "thank you", "good luck",
                 "so much fun", "best", "love you", "excited"],
    "negative": ["so sad", "hate it", "miss you", "sucks", "sorry", "bad day", "so tired",
                 "worst", "hurts", "boring"],
}  # fmt: skip
NAMES = ["@jen", "@mike_d", "@sarahx", "@tom99"]


def tweet(rng: np.random.Generator, sentiment: str) -> tuple[str, str]:
    """``(text, selected_text)`` of one tweet."""
    words = [str(w) for w in rng.choice(FILLER, int(rng.integers(4, 18)))]
    if rng.random() < 0.15:
        words.insert(0, str(rng.choice(NAMES)))
    if rng.random() < 0.05:
        words.append(f"http://t.co/{rng.integers(10**5, 10**6)}")
    if sentiment == "neutral":
        selected = None
    else:
        at = int(rng.integers(0, len(words) + 1))
        phrase = str(rng.choice(PHRASES[sentiment]))
        if rng.random() < 0.3:
            phrase += "!"
        words.insert(at, phrase)
        selected = phrase
        if rng.random() < 0.2 and at + 1 < len(words):
            selected = f"{phrase} {words[at + 1]}"
    text = " ".join(words)
    if rng.random() < 0.3:
        text = " " + text
    return text, text.strip() if selected is None else selected


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    sentiments = np.array(SENTIMENTS)[rng.choice(3, n, p=SHARES)]
    rows = [tweet(rng, str(s)) for s in sentiments]
    frame = pd.DataFrame(
        {
            "textID": hex_ids(rng, n, 10),
            "text": [text for text, _ in rows],
            "selected_text": [selected for _, selected in rows],
            "sentiment": sentiments,
        }
    )
    train_rows, test_rows = split(rng, n, size.n_test)
    train, test = frame.iloc[train_rows], frame.iloc[test_rows]
    train.to_csv(public / "train.csv", index=False)
    test.to_csv(private / "test.csv", index=False)
    test.drop(columns="selected_text").to_csv(public / "test.csv", index=False)
    test[["textID"]].assign(selected_text="").to_csv(public / "sample_submission.csv", index=False)
