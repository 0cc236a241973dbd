"""Text normalisation by memory, then rules: the classic strong baseline of both Kaggle
text-normalization challenges.

Memory: for every token seen in training, its most frequent class and, for that class, its
most frequent spoken form. The test set gives no classes, so a seen token takes its most
frequent class's form. Rules: an unseen token goes to the language's rules (numbers, dates,
letters, units...), which return ``None`` when none applies; then the token is kept as it is,
which is right for most words and punctuation.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

Rules = Callable[[str], str | None]


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
