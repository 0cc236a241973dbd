"""us-patent-phrase-to-phrase-matching: on a GPU, DistilRoBERTa fine-tuned as a cross-encoder
regressor (anchor and target with the CPC context, one sigmoid output); on a CPU, LightGBM on
the pair's similarities (character and word TF-IDF, LSA topic vectors, word overlap) and its
context. With both (``--smoke`` runs both), the better on the hold-out by Pearson, or their
mean, is submitted.

    python -m baselines run --task mlebench/us-patent-phrase-to-phrase-matching
    python -m baselines.mlebench.us_patent_phrase_to_phrase_matching --public-dir DATA/us-patent-phrase-to-phrase-matching/prepared/public --out submission.csv

Why: the score is a judgement of meaning between two short phrases in a patent field, which a
pretrained encoder reading both phrases together does best (the Kaggle winners were DeBERTa
cross-encoders, ~0.87 Pearson). Without a GPU, surface similarity carries much of it: shared
words and character n-grams for near-copies, and LSA topic vectors (learnt from all the
phrases) for related words that are not shared; a gradient-boosted model weighs them by
field. Reads public/train.csv and public/test.csv; writes ``id,score``. Validation: a 10%
hold-out, grouped by anchor (the test set's anchors mostly recur in train, but a model should
not learn a phrase's own pairs). Metric: Pearson correlation (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import lightgbm as lgb
import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from scipy.stats import pearsonr
from sklearn.decomposition import TruncatedSVD
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.preprocessing import normalize

from baselines.kit import (
    CORES,
    Budget,
    StopAtDeadline,
    metric_line,
    predict,
    standalone,
    write_submission,
)
from baselines.text import describe, encode, forward_rows, predict_logits, text_classifier
from baselines.torchkit import autocast, fit, pick_device, setup, sigmoid

METRIC = "pearson"
SEED = 0  # hold-out split, SVD, LightGBM, network weights, batches
LSA_DIMENSIONS = 64  # topic vectors from the phrases' word TF-IDF
LEARNING_RATE = 0.03  # LightGBM shrinkage
NUM_LEAVES = 31  # LightGBM leaves per tree
MAX_ROUNDS = 3000  # upper bound; early stopping ends sooner
EARLY_STOPPING = 100  # rounds without hold-out gain before LightGBM stops
HUB_ID = "distilbert/distilroberta-base"  # 6-layer RoBERTa (82M parameters)
MAX_LENGTH = 48  # tokens of anchor + target + context (phrases are a few words)
EPOCHS = 4  # passes over the training pairs (the time budget may stop sooner)
BATCH_SIZE = 64  # pairs per step
LR = 4e-5  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.1  # share of anchors held out to choose between the models
TRANSFORMER_ON_CPU = False  # a full fine-tune does not fit a CPU budget: LightGBM there
SMOKE_ROWS = 400  # --smoke: train on this many pairs ...
SMOKE_ROUNDS = 100  # ... with at most this many LightGBM rounds ...
SMOKE_MAX_LENGTH = 24  # ... and transformer inputs of this many tokens ...
SMOKE_STEPS = 2  # ... for this many transformer steps (it runs on a CPU too) ...
SMOKE_BATCH = 4  # ... of this many pairs ...
SMOKE_LR = 5e-4  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 20 * 60.0  # the whole script, data to file
THREADS = CORES  # LightGBM and CPU training
RESERVE_S = 15.0  # kept back for prediction and writing


def rowwise_cosine(a: Any, b: Any) -> np.ndarray:
    """Cosine similarity of each row of ``a`` with the same row of ``b`` (sparse or dense)."""
    a, b = normalize(a), normalize(b)
    product = a.multiply(b) if hasattr(a, "multiply") else a * b
    return np.asarray(product.sum(axis=1)).ravel()


def features(frame: pd.DataFrame, phrases: list[str]) -> pd.DataFrame:
    """Similarities of each pair's anchor and target, and its context; the vectorisers are
    fitted on ``phrases`` (every anchor and target of train and test, no scores)."""
    anchor, target = frame["anchor"].tolist(), frame["target"].tolist()
    chars = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4), sublinear_tf=True).fit(phrases)
    words = TfidfVectorizer(sublinear_tf=True, token_pattern=r"\w+").fit(phrases)
    n_topics = max(2, min(LSA_DIMENSIONS, len(words.vocabulary_) - 1))
    lsa = TruncatedSVD(n_topics, random_state=SEED).fit(words.transform(phrases))
    a_words, t_words = words.transform(anchor), words.transform(target)
    a_sets = [set(p.lower().split()) for p in anchor]
    t_sets = [set(p.lower().split()) for p in target]
    shared = np.array([len(a & t) for a, t in zip(a_sets, t_sets, strict=True)], float)
    union = np.array([len(a | t) for a, t in zip(a_sets, t_sets, strict=True)], float)
    context = frame["context"].astype(str)
    return pd.DataFrame(
        {
            "char_cosine": rowwise_cosine(chars.transform(anchor), chars.transform(target)),
            "word_cosine": rowwise_cosine(a_words, t_words),
            "lsa_cosine": rowwise_cosine(lsa.transform(a_words), lsa.transform(t_words)),
            "shared_words": shared,
            "jaccard": shared / np.maximum(union, 1),
            "anchor_words": [len(a) for a in a_sets],
            "target_words": [len(t) for t in t_sets],
            "target_in_anchor": [float(t <= a) for a, t in zip(a_sets, t_sets, strict=True)],
            "section": context.str.slice(0, 1).astype("category"),
            "context": context.astype("category"),
        }
    )


def pearson(y: np.ndarray, p: np.ndarray) -> float:
    return float(pearsonr(y, p)[0]) if np.std(p) > 0 else 0.0


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
    train = pd.read_csv(public_dir / "train.csv", keep_default_na=False)
    test = pd.read_csv(public_dir / "test.csv", keep_default_na=False)
    if smoke:
        train = train.sample(n=min(SMOKE_ROWS, len(train)), random_state=SEED)
    train = train.reset_index(drop=True)
    budget.log(f"read train.csv: {len(train):,} pairs; test.csv: {len(test):,}; device {where}")
    y = train["score"].to_numpy(float)
    anchors = train["anchor"].unique()
    held = set(np.random.default_rng(SEED).permutation(anchors)[: max(1, round(len(anchors) * HOLDOUT))])  # fmt: skip
    is_val = train["anchor"].isin(held).to_numpy()
    fit_rows, val_rows = np.flatnonzero(~is_val), np.flatnonzero(is_val)

    both = pd.concat([train, test], ignore_index=True)
    phrases = pd.concat([both["anchor"], both["target"]]).unique().tolist()
    x = features(both, phrases)
    x_train, x_test = x.iloc[: len(train)], x.iloc[len(train) :]
    budget.log(f"features: {x.shape[1]} columns")
    params = {
        "objective": "regression", "learning_rate": LEARNING_RATE, "num_leaves": NUM_LEAVES,
        "min_data_in_leaf": 20, "feature_fraction": 0.8, "seed": SEED, "num_threads": threads,
        "verbose": -1,
    }  # fmt: skip
    gbm = lgb.train(
        params,
        lgb.Dataset(x_train.iloc[fit_rows], y[fit_rows]),
        num_boost_round=SMOKE_ROUNDS if smoke else MAX_ROUNDS,
        valid_sets=[lgb.Dataset(x_train.iloc[val_rows], y[val_rows])],
        callbacks=[
            lgb.early_stopping(EARLY_STOPPING, verbose=False),
            lgb.log_evaluation(500),
            StopAtDeadline(budget.deadline(parts_left=2 if smoke or where.type == "cuda" else 1,
                                           reserve_s=RESERVE_S), x_test, len(x_test)),
        ],
    )  # fmt: skip
    budget.log(f"LightGBM: {gbm.best_iteration} rounds")
    candidates = {"gbm": (predict(gbm, x_train.iloc[val_rows]), predict(gbm, x_test))}

    if where.type == "cuda" or TRANSFORMER_ON_CPU or smoke:
        net, tokenizer = text_classifier(HUB_ID, 1, pretrained, phrases)
        net.to(where)
        budget.log(describe(net, HUB_ID, pretrained))
        pairs = (
            both["anchor"]
            + tokenizer.sep_token
            + both["target"]
            + "; "
            + both["context"].astype(str)
        )
        tokens = encode(tokenizer, pairs.tolist(), SMOKE_MAX_LENGTH if smoke else MAX_LENGTH)
        forward = forward_rows(net, tokens, where)
        targets = torch.tensor(y, dtype=torch.float32, device=where)

        def loss_of(rows: np.ndarray) -> torch.Tensor:
            picked = fit_rows[rows]
            with autocast(where):
                logits = forward(picked)
            return F.binary_cross_entropy_with_logits(logits.float()[:, 0], targets[picked])

        batch = SMOKE_BATCH if smoke else BATCH_SIZE
        fit(net, len(fit_rows), loss_of, epochs=EPOCHS, batch_size=batch,
            lr=SMOKE_LR if smoke else LR, budget=budget, max_steps=SMOKE_STEPS if smoke else None,
            predict_rows=len(val_rows) + len(test), reserve_s=RESERVE_S, seed=SEED)  # fmt: skip
        rows = np.concatenate([val_rows, np.arange(len(train), len(both))])
        logits = predict_logits(net, {k: v[rows] for k, v in tokens.items()}, where, BATCH_SIZE)
        prob = sigmoid(logits[:, 0])
        net_val, net_test = prob[: len(val_rows)], prob[len(val_rows) :]
        gbm_val, gbm_test = candidates["gbm"]
        candidates["transformer"] = (net_val, net_test)
        candidates["mean"] = ((gbm_val + net_val) / 2, (gbm_test + net_test) / 2)

    scores = {n: pearson(y[val_rows], v) for n, (v, _) in candidates.items()}
    best = max(scores, key=lambda name: scores[name])
    budget.log("hold-out pearson: " + ", ".join(f"{n} {s:.5f}" for n, s in scores.items())
               + f"; submitting {best}")  # fmt: skip
    metric_line(METRIC, scores[best], f"{HOLDOUT:.0%} of anchors held out, {len(val_rows):,} pairs, {best}")  # fmt: skip
    submission = pd.DataFrame({"id": test["id"], "score": np.clip(candidates[best][1], 0, 1)})
    write_submission(submission, out_path, budget)
    return float(scores[best])


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
