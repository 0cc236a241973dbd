"""Text normalisation by memory, then rules: the classic strong baseline of both Kaggle
text-normalization challenges.

Memory: for every token seen in training, its most frequent class and, for that class, its
most frequent spoken form. The test set gives no classes, so a seen token takes its most
frequent class's form. Rules: an unseen token goes to the language's rules (numbers, dates,
letters, units...), which return ``None`` when none applies; then the token is kept as it is,
which is right for most words and punctuation.

The submission comes first (memory from all of train, then the test tokens); the validation
after it gets what the time budget has left: memory learnt again from the training sentences
not held out, scored on the held-out ones, both sampled down to what fits, at the rates the
submission's own pass measured.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import pandas as pd

from baselines.kit import Budget

Rules = Callable[[str], str | None]

MIN_SHARE = 0.02
"""The least of the held-in and held-out sentences a validation short of time still uses."""


def learn(train: pd.DataFrame) -> dict[str, str]:
    """``before`` -> the most frequent ``after`` of its most frequent ``class``."""
    pairs = train.astype({"before": str, "after": str, "class": str})
    classes = pairs.groupby(["before", "class"]).size().rename("n").reset_index()
    top_class = classes.sort_values("n", ascending=False).drop_duplicates("before")
    chosen = pairs.merge(top_class[["before", "class"]], on=["before", "class"])
    forms = chosen.groupby(["before", "after"]).size().rename("n").reset_index()
    top = forms.sort_values("n", ascending=False).drop_duplicates("before")
    return dict(zip(top["before"], top["after"], strict=True))


def normalise(
    tokens: pd.Series, memory: dict[str, str], rules: Rules
) -> tuple[list[str], dict[str, int]]:
    """Spoken forms of ``tokens``, and how many came from memory, rules and as they are."""
    out, counts = [], {"memory": 0, "rules": 0, "as is": 0}
    for token in tokens.astype(str):
        if token in memory:
            out.append(memory[token])
            counts["memory"] += 1
            continue
        spoken = rules(token)
        counts["rules" if spoken is not None else "as is"] += 1
        out.append(token if spoken is None else spoken)
    return out, counts


def accuracy(predicted: list[str], truth: pd.Series) -> float:
    return float((pd.Series(predicted, index=truth.index) == truth.astype(str)).mean())


def predict(
    tokens: pd.Series, train: pd.DataFrame, rules: Rules, budget: Budget
) -> tuple[list[str], float]:
    """Spoken forms of ``tokens`` from memory of all of ``train``, and the seconds this took
    per token of both (what ``validate`` plans with)."""
    start = time.monotonic()
    after, counts = normalise(tokens, learn(train), rules)
    budget.log(f"test tokens: {counts}")
    return after, (time.monotonic() - start) / max(1, len(train) + len(tokens))


def validate(
    train: pd.DataFrame,
    rules: Rules,
    budget: Budget,
    seconds_per_token: float,
    *,
    holdout: float,
    seed: int,
) -> tuple[float, str]:
    """Accuracy on a ``holdout`` share of the training sentences with memory learnt from the
    others, and how it was measured. When the budget has not the time for all of them (at
    ``seconds_per_token``), both sides are sampled down alike, at least ``MIN_SHARE``."""
    rng = np.random.default_rng(seed)
    sentences = train["sentence_id"].unique()
    held = rng.choice(sentences, max(1, int(holdout * len(sentences))), replace=False)
    is_held = train["sentence_id"].isin(held)
    share = min(1.0, max(MIN_SHARE, budget.left() / max(1e-9, seconds_per_token * len(train))))
    sampled = ""
    if share < 1:
        keep = rng.choice(sentences, max(2, int(share * len(sentences))), replace=False)
        kept = train["sentence_id"].isin(keep)
        if (kept & is_held).any() and (kept & ~is_held).any():  # else too few to sample
            train, is_held = train[kept], is_held[kept]
            sampled = f"; a {share:.0%} sample of the sentences, both sides (time budget)"
    predicted, counts = normalise(train.loc[is_held, "before"], learn(train[~is_held]), rules)
    budget.log(f"held-out tokens: {counts}")
    held_sentences = train.loc[is_held, "sentence_id"].nunique()
    how = f"{is_held.sum():,} tokens of {held_sentences:,} held-out sentences{sampled}"
    return accuracy(predicted, train.loc[is_held, "after"]), how
