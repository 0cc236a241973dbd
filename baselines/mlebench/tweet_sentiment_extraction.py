"""tweet-sentiment-extraction: on a GPU, DistilRoBERTa fine-tuned as an extractive reader
(the sentiment as the question, the tweet as the passage, start/end logits over its tokens);
on a CPU, a word lexicon: each word's learnt chance of lying in a selected span of its
sentiment, the best-scoring run of words taken. Neutral tweets are answered whole. With both
(``--smoke`` runs both), the better on the hold-out is submitted.

    python -m baselines run --task mlebench/tweet-sentiment-extraction
    python -m baselines.mlebench.tweet_sentiment_extraction --public-dir DATA/tweet-sentiment-extraction/prepared/public --out submission.csv

Why: the selected text is a span of the tweet, so a span head over a pretrained encoder is the
natural model (the winning Kaggle entries were RoBERTa span readers); a neutral tweet's span
is nearly always the whole text, a rule every entry kept. Without a GPU, sentiment phrases are
mostly a short list of words ("love", "sad"...), which counting recovers: a word's share of
its occurrences inside selected spans, less a threshold tuned on the hold-out, summed over
the best contiguous run. Reads public/train.csv and public/test.csv; writes
``textID,selected_text``. Validation: a 10% hold-out stratified by sentiment. Metric: mean
word-level Jaccard (higher is better).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd

from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.spans import (
    best_spans,
    encode_windows,
    predict_windows,
    question_answerer,
    span_training_loss,
)
from baselines.text import describe
from baselines.torchkit import fit, pick_device, setup

METRIC = "jaccard"
SEED = 0  # hold-out split, head weights, batches
SMOOTHING = 1.0  # lexicon: pseudo-count of a word's occurrences outside a span
THRESHOLDS = np.linspace(0.05, 0.7, 14)  # lexicon: word-score cut-offs tried on the hold-out
HUB_ID = "distilbert/distilroberta-base"  # 6-layer RoBERTa (82M parameters)
MAX_LENGTH = 96  # tokens of sentiment + tweet (tweets are short)
MAX_ANSWER_TOKENS = 64  # longest span decoded
EPOCHS = 3  # passes over the training tweets (the time budget may stop sooner)
BATCH_SIZE = 32  # tweets per step
LR = 3e-5  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.1  # share of train held out to choose between the models
TRANSFORMER_ON_CPU = False  # a full fine-tune does not fit a CPU budget: the lexicon there
SMOKE_ROWS = 400  # --smoke: train on this many tweets ...
SMOKE_MAX_LENGTH = 48  # ... cut to this many tokens ...
SMOKE_STEPS = 2  # ... for this many transformer steps (it runs on a CPU too) ...
SMOKE_BATCH = 4  # ... of this many tweets ...
SMOKE_LR = 5e-4  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 20 * 60.0  # the whole script, data to file
THREADS = CORES  # CPU training
RESERVE_S = 15.0  # kept back for writing (prediction time is measured and kept back too)


def jaccard(truth: str, guess: str) -> float:
    a, b = set(truth.lower().split()), set(guess.lower().split())
    return len(a & b) / len(a | b) if a | b else 1.0


def mean_jaccard(truth: pd.Series, guesses: list[str]) -> float:
    return float(np.mean([jaccard(t, g) for t, g in zip(truth, guesses, strict=True)]))


def fit_lexicon(frame: pd.DataFrame) -> dict[tuple[str, str], float]:
    """(sentiment, word) -> share of the word's occurrences inside a selected span."""
    inside: Counter[tuple[str, str]] = Counter()
    seen: Counter[tuple[str, str]] = Counter()
    for text, selected, sentiment in frame[["text", "selected_text", "sentiment"]].itertuples(
        index=False
    ):
        if sentiment == "neutral":
            continue
        chosen = Counter(selected.lower().split())
        for word in text.lower().split():
            seen[sentiment, word] += 1
            if chosen[word] > 0:
                inside[sentiment, word] += 1
                chosen[word] -= 1
    return {key: inside[key] / (n + SMOOTHING) for key, n in seen.items()}


def lexicon_span(
    text: str, sentiment: str, lexicon: dict[tuple[str, str], float], cut: float
) -> str:
    """The contiguous run of words whose scores less ``cut`` sum highest; the whole text for
    neutral tweets and when no word scores above ``cut``."""
    words = text.split()
    if sentiment == "neutral" or not words:
        return text.strip()
    gain = [lexicon.get((sentiment, w.lower()), 0.0) - cut for w in words]
    best, best_span, run, run_start = 0.0, (0, len(words)), 0.0, 0
    for k, g in enumerate(gain):  # maximum-sum subarray
        if run <= 0:
            run, run_start = 0.0, k
        run += g
        if run > best:
            best, best_span = run, (run_start, k + 1)
    return " ".join(words[best_span[0] : best_span[1]])


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
    budget.log(f"read train.csv: {len(train):,} tweets; test.csv: {len(test):,}; device {where}")
    rng = np.random.default_rng(SEED)
    is_val = np.zeros(len(train), bool)
    for rows in train.groupby("sentiment").indices.values():
        is_val[rng.permutation(rows)[: round(len(rows) * HOLDOUT)]] = True
    fit_part, val_part = train[~is_val], train[is_val]

    lexicon = fit_lexicon(fit_part)
    cut_scores = {
        cut: mean_jaccard(
            val_part["selected_text"],
            [lexicon_span(t, s, lexicon, cut) for t, s in zip(val_part["text"], val_part["sentiment"], strict=True)],
        )
        for cut in THRESHOLDS
    }  # fmt: skip
    cut = max(cut_scores, key=lambda c: cut_scores[c])
    budget.log(f"lexicon: threshold {cut:.2f} (hold-out jaccard {cut_scores[cut]:.4f})")
    val_guess = [lexicon_span(t, s, lexicon, cut) for t, s in zip(val_part["text"], val_part["sentiment"], strict=True)]  # fmt: skip
    lexicon = fit_lexicon(train)
    test_guess = [lexicon_span(t, s, lexicon, cut) for t, s in zip(test["text"], test["sentiment"], strict=True)]  # fmt: skip
    candidates = {"lexicon": (val_guess, test_guess)}

    if where.type == "cuda" or TRANSFORMER_ON_CPU or smoke:
        texts = pd.concat([train["text"], test["text"]]).tolist()
        net, tokenizer = question_answerer(HUB_ID, pretrained, texts)
        net.to(where)
        budget.log(describe(net, HUB_ID, pretrained))
        max_length = SMOKE_MAX_LENGTH if smoke else MAX_LENGTH

        def windows(frame: pd.DataFrame, labelled: bool) -> dict[str, np.ndarray]:
            answers = None
            if labelled:
                at = [t.find(s) for t, s in zip(frame["text"], frame["selected_text"], strict=True)]
                answers = [
                    (a, a + len(s)) if a >= 0 else None
                    for a, s in zip(at, frame["selected_text"], strict=True)
                ]
            return encode_windows(
                tokenizer, frame["sentiment"].tolist(), frame["text"].tolist(),
                max_length, max_length // 4, answers,
            )  # fmt: skip

        fit_tokens, val_tokens, test_tokens = windows(fit_part, True), windows(val_part, False), windows(test, False)  # fmt: skip
        loss_of = span_training_loss(net, fit_tokens, where)
        batch = SMOKE_BATCH if smoke else BATCH_SIZE
        fit(net, len(fit_tokens["sample"]), loss_of, epochs=EPOCHS, batch_size=batch,
            lr=SMOKE_LR if smoke else LR, budget=budget, max_steps=SMOKE_STEPS if smoke else None,
            predict_rows=len(val_tokens["sample"]) + len(test_tokens["sample"]),
            reserve_s=RESERVE_S, seed=SEED)  # fmt: skip

        def read_spans(frame: pd.DataFrame, tokens: dict[str, np.ndarray]) -> list[str]:
            start_logits, end_logits = predict_windows(net, tokens, where, batch)
            spans = best_spans(start_logits, end_logits, tokens["offsets"], tokens["sample"],
                               len(frame), MAX_ANSWER_TOKENS)  # fmt: skip
            return [
                text.strip() if sentiment == "neutral" or a >= b else text[a:b].strip() or text.strip()
                for text, sentiment, (a, b, _) in zip(frame["text"], frame["sentiment"], spans, strict=True)
            ]  # fmt: skip

        candidates["transformer"] = (
            read_spans(val_part, val_tokens),
            read_spans(test, test_tokens),
        )

    scores = {n: mean_jaccard(val_part["selected_text"], v) for n, (v, _) in candidates.items()}
    best = max(scores, key=lambda name: scores[name])
    budget.log("hold-out jaccard: " + ", ".join(f"{n} {s:.5f}" for n, s in scores.items())
               + f"; submitting {best}")  # fmt: skip
    metric_line(METRIC, scores[best], f"{HOLDOUT:.0%} hold-out of {len(train):,} tweets, {best}")
    submission = pd.DataFrame({"textID": test["textID"], "selected_text": candidates[best][1]})
    write_submission(submission, out_path, budget)
    return float(scores[best])


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
