"""chaii-hindi-and-tamil-question-answering: on a GPU, XLM-RoBERTa (base, already trained on
SQuAD 2.0) fine-tuned as an extractive reader over 384-token windows of the passage; on a
CPU, the passage sentence that shares most (IDF-weighted) words with the question, less the
question's words and the words never seen in an answer. With both (``--smoke`` runs both),
the better on the hold-out is submitted.

    python -m baselines run --task mlebench/chaii-hindi-and-tamil-question-answering
    python -m baselines.mlebench.chaii_hindi_and_tamil_question_answering --public-dir DATA/chaii-hindi-and-tamil-question-answering/prepared/public --out submission.csv

Why: the answer is a span of a long Hindi or Tamil passage, so a multilingual encoder with a
start/end head is the model (the Kaggle winners fine-tuned XLM-RoBERTa or MuRIL after SQuAD;
starting from a SQuAD-trained checkpoint matters with only ~1,000 questions). Without a GPU,
the sentence that restates the question usually holds the answer in the words the question
lacks; words that recur in passages but never in answers (copulas, particles, punctuation)
are dropped. Reads public/train.csv and public/test.csv; writes ``id,PredictionString``.
Validation: a 10% hold-out stratified by language. Metric: mean word-level Jaccard (higher is
better).
"""

from __future__ import annotations

import re
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
NEVER_MIN_COUNT = 3  # rule: a word seen this often in passages and never in an answer is dropped
HUB_ID = "deepset/xlm-roberta-base-squad2"  # XLM-RoBERTa base after SQuAD 2.0 (278M parameters)
MAX_LENGTH = 384  # tokens of question + passage window
STRIDE = 128  # tokens shared by neighbouring windows
MAX_ANSWER_TOKENS = 30  # longest span decoded
EPOCHS = 2  # passes over the training windows (the time budget may stop sooner)
BATCH_SIZE = 16  # windows per step
LR = 2e-5  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.1  # share of train held out to choose between the models
TRANSFORMER_ON_CPU = False  # a full fine-tune does not fit a CPU budget: the rule there
SMOKE_ROWS = 100  # --smoke: train on this many questions ...
SMOKE_MAX_LENGTH = 48  # ... in windows of this many tokens ...
SMOKE_STRIDE = 8  # ... sharing this many ...
SMOKE_WINDOWS = 1  # ... reading each passage's first windows only (each is a forward pass) ...
SMOKE_STEPS = 2  # ... for this many transformer steps (it runs on a CPU too) ...
SMOKE_BATCH = 4  # ... of this many windows ...
SMOKE_LR = 5e-4  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 30 * 60.0  # the whole script, data to file
THREADS = CORES  # CPU training
RESERVE_S = 20.0  # kept back for writing (prediction time is measured and kept back too)

SENTENCE = re.compile(r"[^।.?!\n]+[।.?!]?")  # a sentence and its closing mark
PUNCTUATION = "।.?!,;:\"'()"


def jaccard(truth: str, guess: str) -> float:
    a, b = set(truth.lower().split()), set(guess.lower().split())
    return len(a & b) / len(a | b) if a | b else 0.0


def mean_jaccard(truth: pd.Series, guesses: list[str]) -> float:
    return float(np.mean([jaccard(t, g) for t, g in zip(truth, guesses, strict=True)]))


def never_in_answers(train: pd.DataFrame) -> set[str]:
    """Words common in passages that no answer holds."""
    in_answers = {w for a in train["answer_text"] for w in str(a).split()}
    counts = Counter(w for c in train["context"] for w in str(c).split())
    return {w for w, n in counts.items() if n >= NEVER_MIN_COUNT and w not in in_answers}


def rule_answer(context: str, question: str, idf: dict[str, float], never: set[str]) -> str:
    """The words the best-matching sentence adds to the question, as one run."""
    asked = {w.strip(PUNCTUATION) for w in question.split()}
    sentences = [m.group(0).split() for m in SENTENCE.finditer(context)] or [context.split()]
    overlap = [
        sum(idf.get(w, 0.0) for w in set(s) if w.strip(PUNCTUATION) in asked) for s in sentences
    ]
    words = sentences[int(np.argmax(overlap))]
    kept = [k for k, w in enumerate(words) if w.strip(PUNCTUATION) not in asked and w not in never]
    if not kept:
        return " ".join(words)
    return " ".join(words[kept[0] : kept[-1] + 1]).strip(PUNCTUATION + " ")


def first_windows(tokens: dict[str, np.ndarray], keep: int) -> dict[str, np.ndarray]:
    """The rows of each question's first ``keep`` windows (its rows are consecutive)."""
    sample = tokens["sample"]
    rows = np.arange(len(sample)) - np.searchsorted(sample, sample) < keep
    return {name: values[rows] for name, values in tokens.items()}


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
    train = pd.read_csv(public_dir / "train.csv", dtype=str, keep_default_na=False)
    test = pd.read_csv(public_dir / "test.csv", dtype=str, keep_default_na=False)
    if smoke:
        train = train.sample(n=min(SMOKE_ROWS, len(train)), random_state=SEED)
    train = train.reset_index(drop=True)
    budget.log(f"read train.csv: {len(train):,} questions; test.csv: {len(test):,}; device {where}")
    rng = np.random.default_rng(SEED)
    is_val = np.zeros(len(train), bool)
    for rows in train.groupby("language").indices.values():
        is_val[rng.permutation(rows)[: max(1, round(len(rows) * HOLDOUT))]] = True
    fit_part, val_part = train[~is_val], train[is_val]

    contexts = pd.concat([train["context"], test["context"]])
    frequency = Counter(w for c in contexts for w in set(c.split()))
    idf = {w: float(np.log(len(contexts) / n)) for w, n in frequency.items()}

    def rule(frame: pd.DataFrame, never: set[str]) -> list[str]:
        return [rule_answer(c, q, idf, never) for c, q in zip(frame["context"], frame["question"], strict=True)]  # fmt: skip

    candidates = {"rule": (rule(val_part, never_in_answers(fit_part)), rule(test, never_in_answers(train)))}  # fmt: skip

    if where.type == "cuda" or TRANSFORMER_ON_CPU or smoke:
        texts = pd.concat([train["question"], contexts]).tolist()
        net, tokenizer = question_answerer(HUB_ID, pretrained, texts)
        net.to(where)
        budget.log(describe(net, HUB_ID, pretrained))
        max_length = SMOKE_MAX_LENGTH if smoke else MAX_LENGTH
        stride = SMOKE_STRIDE if smoke else STRIDE

        def windows(frame: pd.DataFrame, labelled: bool) -> dict[str, np.ndarray]:
            answers = None
            if labelled:
                starts = frame["answer_start"].astype(int)
                answers = [
                    (s, s + len(a)) for s, a in zip(starts, frame["answer_text"], strict=True)
                ]
            tokens = encode_windows(tokenizer, frame["question"].tolist(), frame["context"].tolist(),
                                    max_length, stride, answers)  # fmt: skip
            return first_windows(tokens, SMOKE_WINDOWS) if smoke else tokens

        fit_tokens, val_tokens, test_tokens = windows(fit_part, True), windows(val_part, False), windows(test, False)  # fmt: skip
        budget.log(f"{len(fit_tokens['sample']):,} training windows of {max_length} tokens")
        loss_of = span_training_loss(net, fit_tokens, where)
        batch = SMOKE_BATCH if smoke else BATCH_SIZE
        fit(net, len(fit_tokens["sample"]), loss_of, epochs=EPOCHS, batch_size=batch,
            lr=SMOKE_LR if smoke else LR, budget=budget, max_steps=SMOKE_STEPS if smoke else None,
            predict_rows=len(val_tokens["sample"]) + len(test_tokens["sample"]),
            reserve_s=RESERVE_S, seed=SEED)  # fmt: skip

        def read_spans(frame: pd.DataFrame, tokens: dict[str, np.ndarray]) -> list[str]:
            start_logits, end_logits = predict_windows(net, tokens, where, BATCH_SIZE)
            spans = best_spans(start_logits, end_logits, tokens["offsets"], tokens["sample"],
                               len(frame), MAX_ANSWER_TOKENS)  # fmt: skip
            return [c[a:b].strip(PUNCTUATION + " ") for c, (a, b, _) in zip(frame["context"], spans, strict=True)]  # fmt: skip

        candidates["transformer"] = (
            read_spans(val_part, val_tokens),
            read_spans(test, test_tokens),
        )

    scores = {n: mean_jaccard(val_part["answer_text"], v) for n, (v, _) in candidates.items()}
    best = max(scores, key=lambda name: scores[name])
    budget.log("hold-out jaccard: " + ", ".join(f"{n} {s:.5f}" for n, s in scores.items())
               + f"; submitting {best}")  # fmt: skip
    metric_line(METRIC, scores[best], f"{HOLDOUT:.0%} hold-out of {len(train):,} questions, {best}")
    submission = pd.DataFrame({"id": test["id"], "PredictionString": candidates[best][1]})
    write_submission(submission, out_path, budget)
    return float(scores[best])


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
