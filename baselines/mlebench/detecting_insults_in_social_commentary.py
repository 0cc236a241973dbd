"""detecting-insults-in-social-commentary: TF-IDF (words and characters) with logistic
regression, and on a GPU a fine-tuned DistilRoBERTa; the better on the hold-out (or their
mean) is submitted.

    python -m baselines run --task mlebench/detecting-insults-in-social-commentary
    python -m baselines.mlebench.detecting_insults_in_social_commentary --public-dir DATA/detecting-insults-in-social-commentary/prepared/public --out submission.csv

Why: 4k short comments, where insults are carried by a handful of words and their spelling
variants: character n-grams with a linear model are strong and train in seconds on a CPU;
a pretrained transformer adds context ("you are" + insult vs. a quoted insult) when a GPU
is there to fine-tune it (on a CPU the TF-IDF model alone is the fallback). Reads
public/train.csv and public/test.csv; writes ``Insult,Date,Comment`` (the comment is the
grader's id) with the probability of an insult. Validation: a stratified 10% hold-out.
Metric: ROC-AUC (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.text import describe, encode, forward_rows, predict_logits, text_classifier, tfidf
from baselines.torchkit import autocast, fit, pick_device, setup, sigmoid

METRIC = "auc"
SEED = 0  # hold-out split, head weights, batches
C = 4.0  # inverse L2 strength of the TF-IDF logistic regression
HUB_ID = "distilbert/distilroberta-base"  # 6-layer RoBERTa (82M parameters)
MAX_LENGTH = 128  # tokens per comment (most are shorter)
EPOCHS = 4  # passes over the training comments (the time budget may stop sooner)
BATCH_SIZE = 32  # comments per step
LR = 3e-5  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.1  # share of train held out to choose between the models
TRANSFORMER_ON_CPU = False  # a full fine-tune does not fit a CPU budget: TF-IDF alone there
SMOKE_ROWS = 300  # --smoke: train on this many comments ...
SMOKE_MAX_LENGTH = 32  # ... cut to this many tokens ...
SMOKE_STEPS = 10  # ... for this many transformer steps (it runs on a CPU too) ...
SMOKE_BATCH = 8  # ... of this many comments ...
SMOKE_LR = 5e-4  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 20 * 60.0  # the whole script, data to file
THREADS = CORES  # TF-IDF fitting and CPU training
RESERVE_S = 15.0  # kept back for writing (prediction time is measured and kept back too)


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
    y = train["Insult"].to_numpy()
    budget.log(
        f"read train.csv: {len(train):,} comments ({y.mean():.0%} insults); "
        f"test.csv: {len(test):,}; device {where}"
    )
    texts = pd.concat([train["Comment"], test["Comment"]]).fillna("").str.strip('"')
    texts = texts.str.replace("\\n", " ", regex=False).tolist()
    fit_rows, val_rows = train_test_split(
        np.arange(len(train)), test_size=HOLDOUT, stratify=y, random_state=SEED
    )
    test_rows = np.arange(len(train), len(texts))

    x = tfidf(texts)
    model = LogisticRegression(C=C, max_iter=2000)
    val_pred = model.fit(x[fit_rows], y[fit_rows]).predict_proba(x[val_rows])[:, 1]
    test_pred = model.fit(x[: len(train)], y).predict_proba(x[test_rows])[:, 1]
    candidates = {"tfidf": (val_pred, test_pred)}
    budget.log(
        f"TF-IDF ({x.shape[1]:,} features) + logistic regression: "
        f"hold-out AUC {roc_auc_score(y[val_rows], val_pred):.5f}"
    )

    if where.type == "cuda" or TRANSFORMER_ON_CPU or smoke:
        net, tokenizer = text_classifier(HUB_ID, 1, pretrained, texts[: len(train)])
        net.to(where)
        budget.log(describe(net, HUB_ID, pretrained))
        tokens = encode(tokenizer, texts, SMOKE_MAX_LENGTH if smoke else MAX_LENGTH)
        forward = forward_rows(net, tokens, where)
        targets = torch.tensor(y, dtype=torch.float32, device=where)

        def loss_of(rows: np.ndarray) -> torch.Tensor:
            picked = fit_rows[rows]
            with autocast(where):
                logits = forward(picked).squeeze(1)
            return F.binary_cross_entropy_with_logits(logits.float(), targets[picked])

        batch = SMOKE_BATCH if smoke else BATCH_SIZE
        fit(net, len(fit_rows), loss_of, epochs=EPOCHS, batch_size=batch,
            lr=SMOKE_LR if smoke else LR, budget=budget, max_steps=SMOKE_STEPS if smoke else None,
            predict_rows=len(val_rows) + len(test_rows), reserve_s=RESERVE_S, seed=SEED)  # fmt: skip
        rows = np.concatenate([val_rows, test_rows])
        chosen = {key: value[rows] for key, value in tokens.items()}
        prob = sigmoid(predict_logits(net, chosen, where, batch)[:, 0])
        candidates["transformer"] = (prob[: len(val_rows)], prob[len(val_rows) :])
        val_tfidf, test_tfidf = candidates["tfidf"]
        candidates["mean"] = (
            (val_tfidf + prob[: len(val_rows)]) / 2,
            (test_tfidf + prob[len(val_rows) :]) / 2,
        )

    scores = {name: roc_auc_score(y[val_rows], val) for name, (val, _) in candidates.items()}
    best = max(scores, key=lambda name: scores[name])
    budget.log(
        "hold-out AUC: "
        + ", ".join(f"{n} {s:.5f}" for n, s in scores.items())
        + f"; submitting {best}"
    )
    metric_line(METRIC, scores[best], f"{HOLDOUT:.0%} hold-out of {len(train):,} comments, {best}")
    submission = test[["Date", "Comment"]].copy()
    submission.insert(0, "Insult", candidates[best][1])
    write_submission(submission, out_path, budget)
    return float(scores[best])


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
