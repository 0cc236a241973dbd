"""google-quest-challenge: question-and-answer pairs from Stack Exchange-like sites, rated on
30 qualities (averages of three raters' 0-3 votes, so multiples of 1/9 in [0, 1]).

Five hidden traits of a pair (wanting instructions, a reason, an opinion, a definition, care
in the writing) move the ratings, and each trait puts words of its own into the title, the
question and the answer: the signal a text model learns. ``question_type_spelling`` is
nearly always 0, as in Kaggle's data.

Public: ``train.csv`` (``qa_id``, ten text and site columns, the 30 targets), ``test.csv``
(the first 11 columns) and ``sample_submission.csv`` (``qa_id`` and the 30 targets, each
rising evenly from 0 to 1 down the rows, as upstream writes it). Private: ``test.csv``
(``qa_id`` and the 30 targets). As upstream: a random tenth of the rows is the test set, and
when ``question_type_spelling`` is constant there, one training row with a nonzero value is
swapped in for the first test row (Spearman needs variation).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..graders.google_quest_challenge import TARGETS
from .common import Size
from .words import sentence

KAGGLE_QA_IDS = 9_648
TEXT = [
    "question_title", "question_body", "question_user_name", "question_user_page", "answer",
    "answer_user_name", "answer_user_page", "url", "category", "host",
]  # fmt: skip
SITES = {
    "stackoverflow.com": "STACKOVERFLOW",
    "superuser.com": "TECHNOLOGY",
    "electronics.stackexchange.com": "SCIENCE",
    "physics.stackexchange.com": "SCIENCE",
    "english.stackexchange.com": "CULTURE",
    "rpg.stackexchange.com": "CULTURE",
    "cooking.stackexchange.com": "LIFE_ARTS",
    "diy.stackexchange.com": "LIFE_ARTS",
}
TRAITS = {  # the words a trait puts into the texts
    "instructions": ["install", "configure", "step", "command", "setup", "run"],
    "reason": ["why", "because", "cause", "reason", "explain", "happens"],
    "opinion": ["prefer", "opinion", "favourite", "recommend", "better", "taste"],
    "definition": ["meaning", "define", "term", "definition", "means", "called"],
    "care": ["clearly", "precisely", "carefully", "detailed", "thorough", "example"],
}
NAMES = ["ann", "bo", "cy", "dee", "eli", "fay", "gil", "hu", "ida", "jo", "kai", "lu"]


def _ratings(rng: np.random.Generator, traits: np.ndarray) -> np.ndarray:
    """(rows, 30) targets: three raters' 0-3 votes averaged, each rater leaning on the traits."""
    weights = rng.normal(0, 1.2, (traits.shape[1], len(TARGETS)))
    bias = rng.normal(0.3, 0.8, len(TARGETS))
    bias[TARGETS.index("question_type_spelling")] = -6.0
    chance = 1 / (1 + np.exp(-(traits @ weights + bias)))
    votes = rng.binomial(3, chance[None].repeat(3, axis=0)).mean(axis=0)
    return (votes / 3).round(6)


def _texts(rng: np.random.Generator, traits: np.ndarray, qa_ids: np.ndarray) -> pd.DataFrame:
    words = list(TRAITS.values())
    rows = []
    for qa_id, row in zip(qa_ids, traits, strict=True):
        marked = [w for k, level in enumerate(row) if level > 0.3 for w in words[k]]
        share = 0.12 if marked else 0.0
        host = str(rng.choice(list(SITES)))
        title = sentence(rng, int(rng.integers(5, 12)), marked, share / 2).capitalize() + "?"
        asker, answerer = (f"{rng.choice(NAMES)}{rng.integers(1, 999)}" for _ in range(2))
        rows.append(
            {
                "qa_id": qa_id,
                "question_title": title,
                "question_body": sentence(rng, int(rng.integers(20, 60)), marked, share),
                "question_user_name": asker,
                "question_user_page": f"https://{host}/users/{rng.integers(1, 99_999)}",
                "answer": sentence(rng, int(rng.integers(20, 80)), marked, share),
                "answer_user_name": answerer,
                "answer_user_page": f"https://{host}/users/{rng.integers(1, 99_999)}",
                "url": f"http://{host}/questions/{rng.integers(1, 999_999)}",
                "category": SITES[host],
                "host": host,
            }
        )
    return pd.DataFrame(rows, columns=["qa_id", *TEXT])


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    qa_ids = np.sort(rng.choice(max(KAGGLE_QA_IDS, 2 * n), n, replace=False))
    traits = rng.normal(0, 1, (n, len(TRAITS)))
    frame = _texts(rng, traits, qa_ids)
    frame[TARGETS] = _ratings(rng, traits)
    order = rng.permutation(n)  # train_test_split: test first, in shuffled order
    test, train = frame.iloc[order[: size.n_test]].copy(), frame.iloc[order[size.n_test :]].copy()
    spelling = "question_type_spelling"
    if test[spelling].nunique() == 1:
        nonzero = train.index[train[spelling] != 0]
        if len(nonzero) == 0:  # a tiny fixture: give one training row a spelling question
            nonzero = train.index[:1]
            train.loc[nonzero[0], spelling] = 1 / 3
        row = train.loc[nonzero[0]].copy()
        train.loc[nonzero[0]] = test.iloc[0]
        test.iloc[0] = row
    train.to_csv(public / "train.csv", index=False)
    test[["qa_id", *TEXT]].to_csv(public / "test.csv", index=False)
    answers = test[["qa_id", *TARGETS]]
    answers.to_csv(private / "test.csv", index=False)
    sample = answers.copy()
    sample[TARGETS] = np.tile(np.linspace(0, 1, len(sample))[:, None], (1, len(TARGETS)))
    sample.to_csv(public / "sample_submission.csv", index=False)
