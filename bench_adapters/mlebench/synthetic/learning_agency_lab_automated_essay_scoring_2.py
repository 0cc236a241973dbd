"""learning-agency-lab-automated-essay-scoring-2: student essays in paragraphs, scored 1 to 6
(mostly 2 to 4, as on Kaggle). Better essays run longer and use more of a richer vocabulary:
the signal a text model learns.

Public: ``train.csv`` (``essay_id,full_text,score``), ``test.csv`` (``essay_id,full_text``)
and ``sample_submission.csv`` (``essay_id,score``, random scores 1 to 6 as upstream draws
them). Private: ``answers.csv`` (the test rows with ``score``). Essay ids are 7 hex
characters; a random tenth of the essays is the test set, as upstream's split.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, hex_ids
from .words import sentence

SCORE_SHARES = [0.07, 0.27, 0.36, 0.22, 0.06, 0.02]
RICH = [
    "consequently", "furthermore", "nevertheless", "substantial", "perspective", "evidence",
    "significant", "alternatively", "ultimately", "fundamental", "demonstrate", "analysis",
    "persuasive", "compelling", "moreover", "inevitably", "sustainable", "implications",
]  # fmt: skip


def essay(rng: np.random.Generator, score: int) -> str:
    paragraphs = []
    for _ in range(2 + score // 2 + int(rng.integers(0, 2))):
        words = int(rng.integers(20, 30)) + 10 * score
        paragraphs.append(sentence(rng, words, RICH, 0.02 * score).capitalize() + ".")
    return "\n\n".join(paragraphs)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    scores = rng.choice(np.arange(1, 7), n, p=SCORE_SHARES)
    frame = pd.DataFrame(
        {
            "essay_id": hex_ids(rng, n, 7),
            "full_text": [essay(rng, int(s)) for s in scores],
            "score": scores,
        }
    )
    order = rng.permutation(n)  # train_test_split: test first, in shuffled order
    answers, train = frame.iloc[order[: size.n_test]], frame.iloc[order[size.n_test :]]
    answers.to_csv(private / "answers.csv", index=False)
    train.to_csv(public / "train.csv", index=False)
    answers.drop(columns=["score"]).to_csv(public / "test.csv", index=False)
    sample = answers[["essay_id"]].assign(score=rng.integers(1, 7, len(answers)))
    sample.to_csv(public / "sample_submission.csv", index=False)
