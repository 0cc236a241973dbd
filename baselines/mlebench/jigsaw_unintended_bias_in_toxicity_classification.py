"""jigsaw-unintended-bias-in-toxicity-classification: TF-IDF (words and characters) logistic
regression with identity-mentioning comments up-weighted, and on a GPU a fine-tuned
DistilRoBERTa; the better on the hold-out by the competition's bias-weighted AUC (or their
mean) is submitted, shifted so that the tuned threshold falls at 0.5.

    python -m baselines run --task mlebench/jigsaw-unintended-bias-in-toxicity-classification
    python -m baselines.mlebench.jigsaw_unintended_bias_in_toxicity_classification --public-dir DATA/jigsaw-unintended-bias-in-toxicity-classification/prepared/public --out submission.csv

Why: toxic comments use words of their own, which n-grams catch (~0.89 on Kaggle for TF-IDF
models, ~0.94 for the fine-tuned transformers that won). The metric also scores comments that
mention an identity (subgroup, BPSN and BNSP AUCs): a model that learns "muslim" or "gay" as a
toxic word loses there, so the non-toxic comments that mention an identity and the toxic
ones that mention none weigh more in training. The grader cuts predictions at 0.5 before its
AUCs, so only which side of 0.5 a comment lands on counts: the threshold is tuned on the
hold-out for the metric and written as 0.5 (a logit shift keeps the ranking in the file).
The training file holds 1.8M comments: the first ``MAX_TRAIN_ROWS`` are used. Reads
public/train.csv and public/test.csv; writes ``id,prediction``. Validation: a stratified 20%
hold-out, scored as the grader scores (identities without both classes left out). Metric:
bias-weighted AUC (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.text import describe, encode, forward_rows, predict_logits, text_classifier, tfidf
from baselines.torchkit import autocast, fit, pick_device, setup, sigmoid

METRIC = "bias_auc"
SEED = 0  # hold-out split, head weights, batches
IDENTITIES = [
    "male", "female", "homosexual_gay_or_lesbian", "christian", "jewish", "muslim", "black",
    "white", "psychiatric_or_mental_illness",
]  # fmt: skip
"""The identities the metric scores."""
POWER = -5  # the metric's power mean over identities
MAX_TRAIN_ROWS = 500_000  # comments read from train.csv (1.8M in all)
IDENTITY_WEIGHT = 1.0  # extra weight of an identity-mentioning comment, and again if non-toxic
C = 2.0  # inverse L2 strength of the logistic regression
THRESHOLDS = np.linspace(0.2, 0.995, 60)  # quantiles of the hold-out's scores tried as the cut
HUB_ID = "distilbert/distilroberta-base"  # 6-layer RoBERTa (82M parameters)
MAX_LENGTH = 192  # tokens per comment
EPOCHS = 1  # passes over the training comments (the time budget stops sooner at full size)
BATCH_SIZE = 64  # comments per step
LR = 3e-5  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.2  # share of train held out to tune the cut and choose between the models
TRANSFORMER_ON_CPU = False  # a full fine-tune does not fit a CPU budget: TF-IDF alone there
SMOKE_ROWS = 600  # --smoke: read this many training comments ...
SMOKE_MAX_LENGTH = 16  # ... cut to this many tokens ...
SMOKE_STEPS = 2  # ... for this many transformer steps (it runs on a CPU too) ...
SMOKE_BATCH = 4  # ... of this many comments ...
SMOKE_LR = 5e-4  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 30 * 60.0  # the whole script, data to file
THREADS = CORES  # TF-IDF fitting and CPU training
RESERVE_S = 15.0  # kept back for writing (prediction time is measured and kept back too)


def bias_auc(toxic: np.ndarray, flagged: np.ndarray, mentions: np.ndarray) -> float:
    """The grader's score of 0/1 ``flagged`` predictions: the mean of the overall AUC and the
    power means of the subgroup, BPSN and BNSP AUCs, each over the identities (columns of
    ``mentions``) whose subset holds both classes."""

    def auc(keep: np.ndarray) -> float:  # of 0/1 scores, ties counting half: (1 + TPR - FPR) / 2
        positive, negative = keep & (toxic == 1), keep & (toxic == 0)
        if not positive.any() or not negative.any():
            return np.nan
        return (1 + flagged[positive].mean() - flagged[negative].mean()) / 2

    parts = [auc(np.ones(len(toxic), bool))]
    for kind in ("subgroup", "bpsn", "bnsp"):
        aucs = []
        for m in mentions.T:
            if kind == "subgroup":
                keep = m
            elif kind == "bpsn":
                keep = (m & (toxic == 0)) | (~m & (toxic == 1))
            else:
                keep = (m & (toxic == 1)) | (~m & (toxic == 0))
            aucs.append(auc(keep))
        found = np.array([v for v in aucs if not np.isnan(v)])
        if len(found):
            parts.append(float(np.mean(np.maximum(found, 1e-9) ** POWER) ** (1 / POWER)))
    return float(np.nanmean(parts))


def tune_cut(prob: np.ndarray, toxic: np.ndarray, mentions: np.ndarray) -> tuple[float, float]:
    """(threshold, score): the quantile of ``prob`` whose 0/1 cut scores best."""
    tries = np.unique(np.quantile(prob, THRESHOLDS))
    scored = [(bias_auc(toxic, (prob >= t).astype(int), mentions), t) for t in tries]
    score, threshold = max(scored)
    return float(threshold), score


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
    columns = ["id", "target", "comment_text", *IDENTITIES]
    train = pd.read_csv(
        public_dir / "train.csv", usecols=columns, nrows=SMOKE_ROWS if smoke else MAX_TRAIN_ROWS
    )
    test = pd.read_csv(public_dir / "test.csv")
    toxic = (train["target"].to_numpy() >= 0.5).astype(np.int64)
    mentions = train[IDENTITIES].fillna(0).to_numpy() >= 0.5
    budget.log(f"read train.csv: {len(train):,} comments ({toxic.mean():.1%} toxic, "
               f"{mentions.any(axis=1).mean():.1%} naming an identity); test.csv: {len(test):,}; "
               f"device {where}")  # fmt: skip
    texts = pd.concat([train["comment_text"], test["comment_text"]]).fillna("").astype(str)
    texts = texts.tolist()
    fit_rows, val_rows = train_test_split(
        np.arange(len(train)), test_size=HOLDOUT, stratify=toxic, random_state=SEED
    )
    test_rows = np.arange(len(train), len(texts))
    named = mentions.any(axis=1)
    weight = 1 + IDENTITY_WEIGHT * (named.astype(float) + (named & (toxic == 0)))
    weight += IDENTITY_WEIGHT * (~named & (toxic == 1))  # the other side of BPSN

    x = tfidf(texts)
    budget.log(f"TF-IDF: {x.shape[1]:,} features")
    model = LogisticRegression(C=C, max_iter=3000)
    model.fit(x[fit_rows], toxic[fit_rows], sample_weight=weight[fit_rows])
    val_pred = model.predict_proba(x[val_rows])[:, 1]
    model.fit(x[: len(train)], toxic, sample_weight=weight)
    test_pred = model.predict_proba(x[test_rows])[:, 1]
    candidates = {"tfidf": (val_pred, test_pred)}

    if where.type == "cuda" or TRANSFORMER_ON_CPU or smoke:
        net, tokenizer = text_classifier(HUB_ID, 1, pretrained, texts[: len(train)])
        net.to(where)
        budget.log(describe(net, HUB_ID, pretrained))
        tokens = encode(tokenizer, texts, SMOKE_MAX_LENGTH if smoke else MAX_LENGTH)
        forward = forward_rows(net, tokens, where)
        soft = torch.tensor(train["target"].to_numpy(), dtype=torch.float32, device=where)
        weights = torch.tensor(weight, dtype=torch.float32, device=where)

        def loss_of(rows: np.ndarray) -> torch.Tensor:
            picked = fit_rows[rows]
            with autocast(where):
                logits = forward(picked).squeeze(1)
            return F.binary_cross_entropy_with_logits(
                logits.float(), soft[picked], weight=weights[picked] / weights[picked].mean()
            )

        batch = SMOKE_BATCH if smoke else BATCH_SIZE
        fit(net, len(fit_rows), loss_of, epochs=EPOCHS, batch_size=batch,
            lr=SMOKE_LR if smoke else LR, budget=budget, max_steps=SMOKE_STEPS if smoke else None,
            predict_rows=len(val_rows) + len(test_rows), reserve_s=RESERVE_S, seed=SEED)  # fmt: skip
        rows = np.concatenate([val_rows, test_rows])
        prob = sigmoid(
            predict_logits(net, {k: v[rows] for k, v in tokens.items()}, where, BATCH_SIZE)[:, 0]
        )
        candidates["transformer"] = (prob[: len(val_rows)], prob[len(val_rows) :])
        candidates["mean"] = (
            (val_pred + prob[: len(val_rows)]) / 2,
            (test_pred + prob[len(val_rows) :]) / 2,
        )

    tuned = {
        n: tune_cut(v, toxic[val_rows], mentions[val_rows]) for n, (v, _) in candidates.items()
    }
    best = max(tuned, key=lambda name: tuned[name][1])
    threshold, score = tuned[best]
    budget.log("hold-out bias AUC: " + ", ".join(f"{n} {s:.5f}" for n, (_, s) in tuned.items())
               + f"; submitting {best}, cut at {threshold:.4f}")  # fmt: skip
    metric_line(METRIC, score, f"{HOLDOUT:.0%} hold-out of {len(train):,} comments, {best}")
    p = np.clip(candidates[best][1], 1e-7, 1 - 1e-7)
    t = min(max(threshold, 1e-7), 1 - 1e-7)
    shifted = sigmoid(np.log(p / (1 - p)) - np.log(t / (1 - t)))  # p >= t exactly when >= 0.5
    shifted = np.where(p >= t, np.maximum(shifted, 0.5), np.minimum(shifted, 0.4999999))
    write_submission(pd.DataFrame({"id": test["id"], "prediction": shifted}), out_path, budget)
    return score


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
