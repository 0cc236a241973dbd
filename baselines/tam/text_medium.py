"""tam/text/medium (LMSYS chatbot arena): multinomial logistic regression on how the two
responses compare (length in characters, words and lines, and their differences) and on
TF-IDF of the prompt and both responses.

    python -m baselines run --task tam/text/medium
    python -m baselines.tam.text_medium --public-dir DATA/text/medium/prepared/public --out submission.csv

Reads public/train.csv and public/test.csv; writes ``id,winner_model_a,winner_model_b,
winner_tie`` (three probabilities summing to 1) for every test comparison. The prompt and
responses are JSON lists of turns, joined into one text each. C is chosen on a hold-out
split, then the model is refitted on all rows. Metric: log loss (lower is better).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

from baselines.kit import Budget, metric_line, standalone, write_submission

METRIC = "log_loss"
SEED = 0  # hold-out split
HOLDOUT = 0.2  # share of the training rows kept back to choose C
C_GRID = (0.03, 0.1, 0.3, 1.0)  # inverse regularisation strengths tried
MAX_FEATURES = 5000  # TF-IDF vocabulary size per text column
SMOKE_ROWS = 200  # --smoke: train on this many rows
TIME_BUDGET_S = 10 * 60.0  # the whole script, data to file
THREADS = 1  # small data: one thread
OUTCOMES = ["winner_model_a", "winner_model_b", "winner_tie"]
TEXTS = ["prompt", "response_a", "response_b"]


def joined(cell: str) -> str:
    """A JSON list of turns as one text (the raw cell when it is not JSON)."""
    try:
        turns = json.loads(cell)
    except (TypeError, json.JSONDecodeError):
        return str(cell)
    return "\n".join(str(t) for t in turns) if isinstance(turns, list) else str(turns)


def shape_features(frame: pd.DataFrame) -> np.ndarray:
    parts = []
    for side in ("response_a", "response_b"):
        text = frame[side]
        parts.append(
            np.column_stack([text.str.len(), text.str.split().str.len(), text.str.count("\n")])
        )
    a, b = parts
    return np.column_stack([a, b, a - b, np.log1p(a) - np.log1p(b)]).astype(float)


def main(
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float = TIME_BUDGET_S,
    threads: int = THREADS,
) -> float:
    budget = Budget(time_budget_s)
    train = pd.read_csv(public_dir / "train.csv")
    test = pd.read_csv(public_dir / "test.csv")
    if smoke:
        train = train.sample(n=min(SMOKE_ROWS, len(train)), random_state=SEED)
    for frame in (train, test):
        for column in TEXTS:
            frame[column] = frame[column].map(joined)
    budget.log(f"read train.csv: {len(train):,} rows; test.csv: {len(test):,} rows")
    y = train[OUTCOMES].to_numpy().argmax(axis=1)

    def design(fit: pd.DataFrame, *others: pd.DataFrame) -> list[sp.csr_matrix]:
        scaler = StandardScaler().fit(shape_features(fit))
        vectors = {c: TfidfVectorizer(max_features=MAX_FEATURES).fit(fit[c]) for c in TEXTS}
        return [
            sp.hstack(
                [sp.csr_matrix(scaler.transform(shape_features(f)))]
                + [vectors[c].transform(f[c]) for c in TEXTS]
            ).tocsr()
            for f in (fit, *others)
        ]

    fit, val = train_test_split(train, test_size=HOLDOUT, random_state=SEED, stratify=y)
    x_fit, x_val = design(fit, val)
    y_fit, y_val = fit[OUTCOMES].to_numpy().argmax(axis=1), val[OUTCOMES].to_numpy().argmax(axis=1)
    losses = {}
    for c in C_GRID:
        model = LogisticRegression(C=c, max_iter=2000).fit(x_fit, y_fit)
        losses[c] = log_loss(y_val, model.predict_proba(x_val), labels=[0, 1, 2])
    best = min(losses, key=losses.__getitem__)
    metric_line(METRIC, float(losses[best]), f"{HOLDOUT:.0%} hold-out, C={best}")
    x_all, x_test = design(train, test)
    probabilities = LogisticRegression(C=best, max_iter=2000).fit(x_all, y).predict_proba(x_test)
    out = pd.DataFrame(probabilities, columns=OUTCOMES)
    out.insert(0, "id", test["id"].to_numpy())
    write_submission(out, out_path, budget)
    return float(losses[best])


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
