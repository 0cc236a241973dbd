"""google-quest-challenge: ridge regression of the 30 ratings on TF-IDF of the question and of
the answer and the site, and on a GPU a fine-tuned DistilRoBERTa with 30 sigmoids (BCE on the
raters' averages); the better on the hold-out by mean Spearman (or their mean) is submitted.

    python -m baselines run --task mlebench/google-quest-challenge
    python -m baselines.mlebench.google_quest_challenge --public-dir DATA/google-quest-challenge/prepared/public --out submission.csv

Why: the ratings say what kind of question it is (instructions, a reason, an opinion...) and
how well the answer serves it, which the words of each text and the site show; one linear
model per rating on n-grams is the cheap entry (~0.30 on Kaggle), a pretrained transformer
over question and answer together the strong one (~0.40, the winners fine-tuned BERTs) when
a GPU can fine-tune it; on a CPU the ridge model alone is the fallback. Only ranks matter to
Spearman, so predictions are rescaled to [0, 1] per column without clipping (clipping would
tie rows). Reads public/train.csv and public/test.csv; writes ``qa_id`` and the 30 ratings.
Validation: a 10% hold-out. Metric: mean over the 30 columns of Spearman's rank correlation
(higher is better; a column constant in the hold-out is left out of the mean).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from scipy.sparse import hstack
from scipy.stats import spearmanr
from sklearn.linear_model import Ridge
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import OneHotEncoder

from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.text import describe, encode, forward_rows, predict_logits, text_classifier, tfidf
from baselines.torchkit import autocast, fit, pick_device, setup, sigmoid

METRIC = "spearman"
SEED = 0  # hold-out split, head weights, batches
ALPHA = 3.0  # L2 strength of the ridge regressions
HUB_ID = "distilbert/distilroberta-base"  # 6-layer RoBERTa (82M parameters)
MAX_LENGTH = 384  # tokens of title, question and answer together
EPOCHS = 4  # passes over the training pairs (the time budget may stop sooner)
BATCH_SIZE = 16  # pairs per step
LR = 3e-5  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.1  # share of train held out to choose between the models
TRANSFORMER_ON_CPU = False  # a full fine-tune does not fit a CPU budget: TF-IDF alone there
SMOKE_ROWS = 300  # --smoke: train on this many pairs ...
SMOKE_MAX_LENGTH = 16  # ... cut to this many tokens ...
SMOKE_STEPS = 2  # ... for this many transformer steps (it runs on a CPU too) ...
SMOKE_BATCH = 4  # ... of this many pairs ...
SMOKE_LR = 5e-4  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 20 * 60.0  # the whole script, data to file
THREADS = CORES  # TF-IDF fitting and CPU training
RESERVE_S = 15.0  # kept back for writing (prediction time is measured and kept back too)


def mean_spearman(truth: np.ndarray, pred: np.ndarray) -> float:
    """Spearman per column, averaged over the columns where it is defined."""
    rhos = [spearmanr(truth[:, k], pred[:, k]).correlation for k in range(truth.shape[1])]
    return float(np.nanmean(rhos))


def unit(pred: np.ndarray) -> np.ndarray:
    """Each column moved to [0, 1] by its own minimum and maximum: the ranks are kept."""
    low, high = pred.min(axis=0), pred.max(axis=0)
    return (pred - low) / np.where(high > low, high - low, 1.0)


def main(
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float = TIME_BUDGET_S,
    threads: int = THREADS,
    device: str | None = None,
    pretrained: str | None = None,
) -> float:
    budget = Budget(time_budget_s)
    where = pick_device(device)
    setup(SEED, threads, where)
    train = pd.read_csv(public_dir / "train.csv")
    test = pd.read_csv(public_dir / "test.csv")
    if smoke:
        train = train.sample(n=min(SMOKE_ROWS, len(train)), random_state=SEED)
    targets = list(pd.read_csv(public_dir / "sample_submission.csv", nrows=1).columns[1:])
    y = train[targets].to_numpy(np.float64)
    budget.log(f"read train.csv: {len(train):,} pairs; test.csv: {len(test):,}; device {where}")
    both = pd.concat([train[test.columns], test], ignore_index=True).fillna("")
    question = (both["question_title"] + " \n " + both["question_body"]).tolist()
    answer = both["answer"].tolist()
    fit_rows, val_rows = train_test_split(
        np.arange(len(train)), test_size=HOLDOUT, random_state=SEED
    )
    test_rows = np.arange(len(train), len(both))

    sites = OneHotEncoder(handle_unknown="ignore").fit_transform(both[["category", "host"]])
    x = hstack([tfidf(question, 50_000), tfidf(answer, 50_000), sites]).tocsr()
    model = Ridge(alpha=ALPHA)
    val_pred = model.fit(x[fit_rows], y[fit_rows]).predict(x[val_rows])
    test_pred = model.fit(x[: len(train)], y).predict(x[test_rows])
    candidates = {"tfidf": (val_pred, test_pred)}

    if where.type == "cuda" or TRANSFORMER_ON_CPU or smoke:
        pairs = [
            f"{t} </s> {b} </s> {a}"
            for t, b, a in zip(both["question_title"], both["question_body"], answer, strict=True)
        ]
        net, tokenizer = text_classifier(HUB_ID, len(targets), pretrained, pairs[: len(train)])
        net.to(where)
        budget.log(describe(net, HUB_ID, pretrained))
        tokens = encode(tokenizer, pairs, SMOKE_MAX_LENGTH if smoke else MAX_LENGTH)
        forward = forward_rows(net, tokens, where)
        soft = torch.tensor(y, dtype=torch.float32, device=where)

        def loss_of(rows: np.ndarray) -> torch.Tensor:
            picked = fit_rows[rows]
            with autocast(where):
                logits = forward(picked)
            return F.binary_cross_entropy_with_logits(logits.float(), soft[picked])

        batch = SMOKE_BATCH if smoke else BATCH_SIZE
        fit(net, len(fit_rows), loss_of, epochs=EPOCHS, batch_size=batch,
            lr=SMOKE_LR if smoke else LR, budget=budget, max_steps=SMOKE_STEPS if smoke else None,
            predict_rows=len(val_rows) + len(test_rows), reserve_s=RESERVE_S, seed=SEED)  # fmt: skip
        rows = np.concatenate([val_rows, test_rows])
        prob = sigmoid(
            predict_logits(net, {k: v[rows] for k, v in tokens.items()}, where, BATCH_SIZE)
        )
        candidates["transformer"] = (prob[: len(val_rows)], prob[len(val_rows) :])
        candidates["mean"] = (
            (val_pred + prob[: len(val_rows)]) / 2,
            (test_pred + prob[len(val_rows) :]) / 2,
        )

    scores = {n: mean_spearman(y[val_rows], v) for n, (v, _) in candidates.items()}
    best = max(scores, key=lambda name: scores[name])
    budget.log("hold-out mean Spearman: " + ", ".join(f"{n} {s:.5f}" for n, s in scores.items())
               + f"; submitting {best}")  # fmt: skip
    metric_line(METRIC, scores[best], f"{HOLDOUT:.0%} hold-out of {len(train):,} pairs, {best}")
    submission = pd.DataFrame(unit(candidates[best][1]), columns=targets)
    submission.insert(0, "qa_id", test["qa_id"].to_numpy())
    write_submission(submission, out_path, budget)
    return scores[best]


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
