"""lmsys-chatbot-arena: pairs of chatbot conversations and which one the user preferred (model
a, model b, or a tie, in Kaggle's shares).

Each row is one prompt (a JSON list of one to three turns) answered by two models (JSON lists
of as many replies; a reply is now and then ``null``, as in Kaggle's data). The preference
follows a Bradley-Terry model: each model has a strength, and a reply that is longer and
holds more "helpful" words ("example", "step", "because"...) is preferred; close calls are
ties. The model names, the replies' length and their words all carry signal.

Public: ``train.csv`` (``id,model_a,model_b,prompt,response_a,response_b,winner_model_a,
winner_model_b,winner_tie``), ``test.csv`` (``id,prompt,response_a,response_b``),
``sample_submission.csv`` (``id`` and the three columns at 0.3333333333333333). Private:
``answers.csv`` (the test rows with every training column). Ids are distinct integers;
rows are in the shuffled order of upstream's split.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, split
from .words import sentence

OUTCOMES = ["winner_model_a", "winner_model_b", "winner_tie"]
THIRD = 0.3333333333333333
MODELS = {  # name -> strength
    "gpt-4-1106-preview": 1.2,
    "gpt-4-0613": 0.9,
    "claude-2.1": 0.6,
    "claude-instant-1": 0.3,
    "gpt-3.5-turbo-0613": 0.3,
    "mixtral-8x7b-instruct-v0.1": 0.4,
    "llama-2-70b-chat": 0.1,
    "vicuna-13b": -0.2,
    "mistral-7b-instruct": -0.3,
    "llama-2-7b-chat": -0.5,
    "koala-13b": -0.8,
    "oasst-pythia-12b": -1.0,
}
HELPFUL = ["example", "step", "because", "first", "second", "finally", "here", "code", "note"]


def _reply(rng: np.random.Generator, strength: float) -> tuple[str | None, float]:
    """One reply and its quality."""
    if rng.random() < 0.02:
        return None, -1.0
    words = max(3, int(rng.normal(40 + 25 * strength, 15)))
    share = float(np.clip(0.06 + 0.04 * strength, 0.0, 0.2))
    text = sentence(rng, words, HELPFUL, share).capitalize() + "."
    helpful = sum(w in HELPFUL for w in text.split())
    return text, 0.01 * words + 0.15 * helpful


def conversation(rng: np.random.Generator, a: str, b: str) -> tuple[list[object], np.ndarray]:
    """``[prompt, response_a, response_b]`` as JSON lists, and the one-hot outcome."""
    turns = int(rng.choice([1, 2, 3], p=[0.85, 0.1, 0.05]))
    prompt = [sentence(rng, int(rng.integers(4, 25))).capitalize() + "?" for _ in range(turns)]
    quality = {}
    responses = []
    for name in (a, b):
        replies = [_reply(rng, MODELS[name]) for _ in range(turns)]
        responses.append(json.dumps([text for text, _ in replies]))
        quality[name] = MODELS[name] + sum(q for _, q in replies) / turns
    gap = quality[a] - quality[b]
    logits = np.array([gap, -gap, 1.1 - abs(gap)])
    p = np.exp(logits) / np.exp(logits).sum()
    outcome = np.eye(3, dtype=np.int64)[rng.choice(3, p=p)]
    return [json.dumps(prompt), *responses], outcome


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    names = list(MODELS)
    rows = []
    for _ in range(n):
        a, b = (names[k] for k in rng.choice(len(names), 2, replace=False))
        texts, outcome = conversation(rng, a, b)
        rows.append([a, b, *texts, *outcome.tolist()])
    columns = ["model_a", "model_b", "prompt", "response_a", "response_b", *OUTCOMES]
    frame = pd.DataFrame(rows, columns=columns)
    frame.insert(0, "id", np.sort(rng.choice(4_294_000_000, n, replace=False)) + 30_000)
    train_rows, test_rows = split(rng, n, size.n_test)
    for k, row in enumerate(test_rows[:3]):  # every outcome in the answers, however small
        frame.loc[row, OUTCOMES] = np.eye(3, dtype=np.int64)[k]
    train, answers = frame.iloc[train_rows], frame.iloc[test_rows]
    train.to_csv(public / "train.csv", index=False)
    answers[["id", "prompt", "response_a", "response_b"]].to_csv(public / "test.csv", index=False)
    answers[["id"]].assign(**dict.fromkeys(OUTCOMES, THIRD)).to_csv(
        public / "sample_submission.csv", index=False
    )
    answers.to_csv(private / "answers.csv", index=False)
