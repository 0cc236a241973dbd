"""facebook-recruiting-iii-keyword-extraction: one-vs-rest logistic regressions on TF-IDF of
the title and body, one for each of the most frequent tags; each question gets the tags whose
probability passes a threshold tuned on the hold-out for the grader's micro-F1 (its best tag
always, at most ``MAX_TAGS_PER_QUESTION``).

    python -m baselines run --task mlebench/facebook-recruiting-iii-keyword-extraction
    python -m baselines.mlebench.facebook_recruiting_iii_keyword_extraction --public-dir DATA/facebook-recruiting-iii-keyword-extraction/prepared/public --out submission.csv

Why: a question's tags are mostly named in its words (``c#``, ``jquery``, ``django``) or
implied by them, and tag popularity falls off fast, so linear classifiers for the commonest
tags on word n-grams are the strong cheap entry (~0.75 mean F1 on Kaggle with a few thousand
tags); the tokens keep ``c#``, ``c++`` and ``asp.net`` whole. The threshold trades precision
for recall as micro-F1 wants it. The training file holds 5.4M questions: the first
``MAX_TRAIN_ROWS`` are used, and the classifiers are fitted in order of tag frequency until
the time budget says stop (a tag without one is never predicted). Reads public/train.csv and
public/test.csv; writes ``Id,Tags`` (space-separated). Validation: a 10% hold-out, fitted
models trained on the other 90% only (no refit: the budget goes to more tags). Metric:
micro-F1 over tag sets (higher is better).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.sparse import csr_matrix
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

from baselines.kit import Budget, metric_line, standalone, write_submission

METRIC = "micro_f1"
SEED = 0  # hold-out split
MAX_TRAIN_ROWS = 300_000  # questions read from train.csv (5.4M in all)
TOP_TAGS = 1000  # classifiers for at most this many of the commonest tags
TOKENS = r"(?u)\b\w[\w#+.\-]*[\w#+]|\b\w"  # words, keeping c#, c++, asp.net, objective-c
MAX_FEATURES = 100_000  # TF-IDF vocabulary (word 1-2-grams)
C = 4.0  # inverse L2 strength of each tag's logistic regression
THRESHOLDS = np.linspace(0.05, 0.7, 27)  # probability thresholds tried on the hold-out
MAX_TAGS_PER_QUESTION = 5  # Kaggle's questions carry one to five tags
HOLDOUT = 0.1  # share of the training questions held out to tune the threshold
CHUNK = 50_000  # questions scored at a time (keeps the tags x rows matrix small)
SMOKE_ROWS = 500  # --smoke: train on this many questions ...
SMOKE_TAGS = 40  # ... with classifiers for this many tags
TIME_BUDGET_S = 30 * 60.0  # the whole script, data to file
THREADS = 1  # liblinear fits one tag at a time on one thread
RESERVE_S = 60.0  # kept back for predicting the test questions and writing


def texts(frame: pd.DataFrame) -> pd.Series:
    """Title (twice: it names the tags most often) and body, HTML tags dropped."""
    body = frame["Body"].fillna("").str.replace(r"<[^>]+>", " ", regex=True)
    title = frame["Title"].fillna("")
    return (title + " " + title + " " + body).str.lower()


def micro_f1(truth: list[set[str]], predicted: list[set[str]]) -> float:
    hits = sum(len(t & p) for t, p in zip(truth, predicted, strict=True))
    total = sum(map(len, truth)) + sum(map(len, predicted))
    return 2 * hits / total if total else 0.0


def top_tags(x: csr_matrix, weights: np.ndarray, bias: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rows, MAX_TAGS_PER_QUESTION) tag positions, best first, and their probabilities."""
    k = min(MAX_TAGS_PER_QUESTION, weights.shape[1])
    order, prob = [], []
    for start in range(0, x.shape[0], CHUNK):
        logits = x[start : start + CHUNK] @ weights + bias
        best = np.argsort(-logits, axis=1)[:, :k]
        order.append(best)
        prob.append(1 / (1 + np.exp(-np.take_along_axis(logits, best, axis=1))))
    return np.concatenate(order), np.concatenate(prob)


def chosen(order: np.ndarray, prob: np.ndarray, names: list[str], cut: float) -> list[set[str]]:
    """Each question's tags at or above ``cut``, its best one always."""
    keep = prob >= cut
    keep[:, 0] = True
    return [{names[t] for t in row[mask]} for row, mask in zip(order, keep, strict=True)]


def main(
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float = TIME_BUDGET_S,
    threads: int = THREADS,
) -> float:
    budget = Budget(time_budget_s)
    train = pd.read_csv(public_dir / "train.csv", nrows=MAX_TRAIN_ROWS)
    test = pd.read_csv(public_dir / "test.csv")
    if smoke:
        train = train.sample(n=min(SMOKE_ROWS, len(train)), random_state=SEED)
    tags = [set(str(t).split()) if isinstance(t, str) else set() for t in train["Tags"]]
    budget.log(f"read train.csv: {len(train):,} questions; test.csv: {len(test):,}")
    rng = np.random.default_rng(SEED)
    held = rng.random(len(train)) < HOLDOUT
    fit_rows, val_rows = np.flatnonzero(~held), np.flatnonzero(held)
    counts = pd.Series([t for row in tags for t in row]).value_counts()
    names = list(counts.index[: SMOKE_TAGS if smoke else TOP_TAGS])
    budget.log(f"{len(counts):,} tags; classifiers for the {len(names):,} commonest, which "
               f"cover {counts.iloc[: len(names)].sum() / counts.sum():.1%} of tag uses")  # fmt: skip

    vectorizer = TfidfVectorizer(token_pattern=TOKENS, ngram_range=(1, 2), min_df=2,
                                 sublinear_tf=True, max_features=MAX_FEATURES, dtype=np.float32)  # fmt: skip
    x = vectorizer.fit_transform(texts(train))
    x_test = vectorizer.transform(texts(test))
    budget.log(f"TF-IDF: {x.shape[1]:,} features")
    weights = np.zeros((x.shape[1], len(names)), np.float32)
    bias = np.full(len(names), -30.0, np.float32)  # a tag left without a model: never chosen
    deadline = budget.deadline(reserve_s=RESERVE_S)
    x_fit = x[fit_rows]
    start, fitted = time.monotonic(), 0
    for k, name in enumerate(names):
        per_tag = (time.monotonic() - start) / max(1, k)
        if k and time.monotonic() + per_tag > deadline:
            budget.log(f"time budget reached after {k:,} of {len(names):,} tags")
            break
        label = np.array([name in tags[r] for r in fit_rows])
        if label.any() and not label.all():
            model = LogisticRegression(C=C, solver="liblinear").fit(x_fit, label)
            weights[:, k], bias[k] = model.coef_[0], model.intercept_[0]
            fitted += 1
        if (k + 1) % 100 == 0:
            budget.log(f"fitted {k + 1:,}/{len(names):,} tags")
    budget.log(f"{fitted:,} tag classifiers")

    order, prob = top_tags(x[val_rows], weights, bias)
    truth = [tags[r] for r in val_rows]
    scores = {cut: micro_f1(truth, chosen(order, prob, names, cut)) for cut in THRESHOLDS}
    cut = max(scores, key=lambda c: scores[c])
    budget.log(f"hold-out micro-F1 {scores[cut]:.5f} at threshold {cut:.3f} "
               f"(best tag only: {micro_f1(truth, chosen(order, prob, names, 2.0)):.5f})")  # fmt: skip
    metric_line(METRIC, scores[cut], f"{HOLDOUT:.0%} hold-out of {len(train):,} questions")
    order, prob = top_tags(x_test, weights, bias)
    predicted = [" ".join(sorted(t)) for t in chosen(order, prob, names, cut)]
    write_submission(pd.DataFrame({"Id": test["Id"], "Tags": predicted}), out_path, budget)
    return scores[cut]


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
