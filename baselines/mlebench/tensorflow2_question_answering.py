"""tensorflow2-question-answering: on a GPU, DistilRoBERTa fine-tuned as a candidate reader:
the question with one top-level long-answer candidate, a start/end head for the short span
and an answer-type head (no answer, short span, long answer only, YES, NO); on a CPU,
LightGBM ranking the candidates by how much of the question they contain, the best one the
long answer above a tuned threshold, the short answer left blank. With both (``--smoke`` runs
both), the better on the hold-out is submitted.

    python -m baselines run --task mlebench/tensorflow2-question-answering
    python -m baselines.mlebench.tensorflow2_question_answering --public-dir DATA/tensorflow2-question-answering/prepared/public --out submission.csv

Why: a long answer is one of the page's candidate blocks and a short answer a span inside it,
or YES/NO; a transformer reading the question with a candidate, with span and answer-type
heads, is the design of the Natural Questions baselines (BERT-joint) and of the Kaggle
entries. About half the questions have no answer, and the metric counts a blank right there,
so each answer is given only above a confidence threshold tuned on the hold-out. Without a
GPU, the candidate that repeats the question's rarer words is usually the long answer; short
answers need a reader and are left blank. Reads ``train_records`` of
public/simplified-nq-train.jsonl (the first ``MAX_TRAIN_RECORDS``) and
public/simplified-nq-test.jsonl; writes ``example_id,PredictionString`` (``<id>_long``,
``<id>_short``: ``start:end`` tokens, YES, NO or blank). Validation: 10% of the training
records. Metric: the grader's micro-F1 (the accuracy of answered-or-blank over both rows).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from itertools import islice, pairwise
from pathlib import Path
from typing import Any

import lightgbm as lgb
import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F

from baselines.kit import (
    CORES,
    Budget,
    StopAtDeadline,
    metric_line,
    predict,
    standalone,
    write_submission,
)
from baselines.spans import encode_windows, question_answerer, span_loss
from baselines.text import describe
from baselines.torchkit import autocast, fit, pick_device, setup, softmax
from baselines.torchkit import predict as predict_rows

METRIC = "micro_f1"
SEED = 0  # hold-out split, negative sampling, LightGBM, network weights, batches
MAX_TRAIN_RECORDS = 30_000  # records read from the 17 GB training file (of 307k)
COMMON_SHARE = 0.1  # a word in more questions than this share is not a content word
THRESHOLDS = np.linspace(0.0, 1.0, 41)  # confidence cut-offs tried on the hold-out
LEARNING_RATE = 0.05  # LightGBM shrinkage
NUM_LEAVES = 31  # LightGBM leaves per tree
MAX_ROUNDS = 2000  # upper bound; early stopping ends sooner
EARLY_STOPPING = 100  # rounds without hold-out gain before LightGBM stops
HUB_ID = "distilbert/distilroberta-base"  # 6-layer RoBERTa (82M parameters)
MAX_LENGTH = 384  # tokens of question + candidate (longer candidates are cut)
NEGATIVES = 3  # candidates without the answer sampled per training record
MAX_ANSWER_TOKENS = 30  # longest short span decoded
EPOCHS = 2  # passes over the sampled candidates (the time budget may stop sooner)
BATCH_SIZE = 32  # candidates per step
LR = 3e-5  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.1  # share of training records held out for thresholds and the choice
TRANSFORMER_ON_CPU = False  # a full fine-tune does not fit a CPU budget: LightGBM there
SMOKE_RECORDS = 150  # --smoke: train on this many records ...
SMOKE_ROUNDS = 50  # ... with at most this many LightGBM rounds ...
SMOKE_MAX_LENGTH = 24  # ... transformer inputs of this many tokens (every candidate is read) ...
SMOKE_STEPS = 2  # ... for this many transformer steps (it runs on a CPU too) ...
SMOKE_BATCH = 4  # ... of this many candidates ...
SMOKE_LR = 5e-4  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 40 * 60.0  # the whole script, data to file
THREADS = CORES  # LightGBM and CPU training
RESERVE_S = 30.0  # kept back for prediction and writing
KINDS = ["none", "short", "long", "YES", "NO"]  # the answer-type head's classes
TAGS = {"<P>": 0, "<Table>": 1, "<Ul>": 2, "<Ol>": 3, "<Dl>": 4}  # a candidate's first token


@dataclass
class Record:
    id: str
    question: list[str]
    tokens: list[str]
    candidates: list[tuple[int, int]]  # top-level candidates' (start, end) tokens
    long: tuple[int, int] | None = None  # the true long answer (training records)
    short: tuple[int, int] | None = None  # the first true short span
    yes_no: str = "NONE"
    candidate_text: list[str] = field(default_factory=list)


def read_record(line: str) -> Record:
    raw: dict[str, Any] = json.loads(line)
    tokens = raw["document_text"].split(" ")
    spans = [(c["start_token"], c["end_token"]) for c in raw["long_answer_candidates"] if c["top_level"]]  # fmt: skip
    record = Record(str(raw["example_id"]), raw["question_text"].lower().split(), tokens, spans)
    record.candidate_text = [" ".join(tokens[a:b]) for a, b in spans]
    if "annotations" in raw:
        note = raw["annotations"][0]
        if note["long_answer"]["start_token"] >= 0:
            record.long = (note["long_answer"]["start_token"], note["long_answer"]["end_token"])
        if note["short_answers"]:
            record.short = (note["short_answers"][0]["start_token"], note["short_answers"][0]["end_token"])  # fmt: skip
        record.yes_no = note["yes_no_answer"]
    return record


def kind_of(record: Record, candidate: tuple[int, int]) -> int:
    """The answer-type class of one candidate of a training record."""
    if record.long != candidate:
        return 0
    if record.yes_no != "NONE":
        return KINDS.index(record.yes_no)
    return 1 if record.short is not None else 2


def candidate_features(
    records: list[Record], idf: dict[str, float], common: set[str]
) -> pd.DataFrame:
    """One row per top-level candidate: how much of the question it and the page contain."""
    rows = []
    for r in records:
        content = [w for w in dict.fromkeys(r.question) if w not in common] or r.question
        weight = np.array([idf.get(w, 1.0) for w in content])
        bigrams = set(zip(r.question, r.question[1:], strict=False))
        title = {w.lower() for w in r.tokens[:12]}
        covers = []
        for k, text in enumerate(r.candidate_text):
            words = text.lower().split()
            present = set(words)
            hit = np.array([w in present for w in content])
            covers.append(float((weight * hit).sum() / weight.sum()))
            rows.append({
                "cover": float(hit.mean()), "idf_cover": covers[-1], "hits": float(hit.sum()),
                "bigrams": float(len(bigrams & set(pairwise(words)))),
                "length": float(len(words)), "place": k / max(1, len(r.candidate_text)),
                "first": float(k == 0), "tag": TAGS.get(text.split(" ", 1)[0], len(TAGS)),
                "title_cover": float(np.mean([w in title for w in content])),
            })  # fmt: skip
        for k, c in enumerate(covers):
            rows[len(rows) - len(covers) + k]["gap_to_best"] = max(covers) - c
    return pd.DataFrame(rows)


def answer_rows(record: Record, long: tuple[int, int] | None, short: str) -> list[tuple[str, str]]:
    long_text = f"{long[0]}:{long[1]}" if long is not None else ""
    return [(f"{record.id}_long", long_text), (f"{record.id}_short", short)]


def micro_f1(records: list[Record], rows: list[tuple[str, str]]) -> float:
    """The grader's score on training records: right when the answer is valid, or blank and
    no valid answer exists."""
    right = 0
    for r, (long_row, short_row) in zip(records, zip(rows[::2], rows[1::2], strict=True), strict=True):  # fmt: skip
        long_valid = {f"{r.long[0]}:{r.long[1]}"} if r.long else set()
        short_valid = {f"{r.short[0]}:{r.short[1]}"} if r.short else set()
        if r.yes_no != "NONE":
            short_valid.add(r.yes_no)
        for (_, guess), valid in ((long_row, long_valid), (short_row, short_valid)):
            right += guess in valid if guess else not valid
    return right / max(1, 2 * len(records))


class Reader(torch.nn.Module):
    """The encoder's start/end head and an answer-type head on its first token."""

    def __init__(self, qa: Any) -> None:
        super().__init__()
        self.qa = qa
        self.kind = torch.nn.Linear(int(qa.config.hidden_size), len(KINDS))

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, ...]:
        out = self.qa(input_ids=ids, attention_mask=mask, output_hidden_states=True)
        return out.start_logits, out.end_logits, self.kind(out.hidden_states[-1][:, 0])


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
    limit = SMOKE_RECORDS if smoke else MAX_TRAIN_RECORDS
    with open(public_dir / "simplified-nq-train.jsonl", encoding="utf-8") as f:
        train = [read_record(line) for line in islice(f, limit)]
    with open(public_dir / "simplified-nq-test.jsonl", encoding="utf-8") as f:
        test = [read_record(line) for line in f]
    budget.log(f"read {len(train):,} training records, {len(test):,} test ones; device {where}")
    order = np.random.default_rng(SEED).permutation(len(train))
    n_val = max(1, round(len(train) * HOLDOUT))
    val_books = [train[k] for k in order[:n_val]]
    fit_books = [train[k] for k in order[n_val:]]

    questions = Counter(w for r in train + test for w in set(r.question))
    common = {w for w, n in questions.items() if n > COMMON_SHARE * (len(train) + len(test))}
    pages = Counter(w for r in train + test for w in {t.lower() for t in r.tokens})
    idf = {w: float(np.log((len(train) + len(test)) / n)) for w, n in pages.items()}
    x_fit, x_val, x_test = (candidate_features(b, idf, common) for b in (fit_books, val_books, test))  # fmt: skip
    y_fit = np.array([kind_of(r, c) > 0 for r in fit_books for c in r.candidates], float)
    y_val = np.array([kind_of(r, c) > 0 for r in val_books for c in r.candidates], float)
    budget.log(f"{len(x_fit):,} training candidates, {x_fit.shape[1]} features")
    params = {
        "objective": "binary", "learning_rate": LEARNING_RATE, "num_leaves": NUM_LEAVES,
        "min_data_in_leaf": 10, "seed": SEED, "num_threads": threads, "verbose": -1,
    }  # fmt: skip
    gbm = lgb.train(
        params,
        lgb.Dataset(x_fit, y_fit),
        num_boost_round=SMOKE_ROUNDS if smoke else MAX_ROUNDS,
        valid_sets=[lgb.Dataset(x_val, y_val)],
        callbacks=[
            lgb.early_stopping(EARLY_STOPPING, verbose=False),
            lgb.log_evaluation(500),
            StopAtDeadline(budget.deadline(parts_left=2 if smoke or where.type == "cuda" else 1,
                                           reserve_s=RESERVE_S), x_test, len(x_test)),
        ],
    )  # fmt: skip

    def gbm_rows(books: list[Record], prob: np.ndarray, cut: float) -> list[tuple[str, str]]:
        rows, at = [], 0
        for r in books:
            p = prob[at : at + len(r.candidates)]
            at += len(r.candidates)
            best = int(np.argmax(p)) if len(p) else -1
            rows += answer_rows(r, r.candidates[best] if best >= 0 and p[best] > cut else None, "")
        return rows

    val_prob, test_prob = predict(gbm, x_val), predict(gbm, x_test)
    cut = max(THRESHOLDS, key=lambda t: micro_f1(val_books, gbm_rows(val_books, val_prob, t)))
    budget.log(f"LightGBM: {gbm.best_iteration} rounds; long-answer threshold {cut:.3f}")
    candidates = {"gbm": (gbm_rows(val_books, val_prob, cut), gbm_rows(test, test_prob, cut))}

    if where.type == "cuda" or TRANSFORMER_ON_CPU or smoke:
        rng = np.random.default_rng(SEED)
        picked: list[tuple[Record, int]] = []
        for r in fit_books:
            kinds = [kind_of(r, c) for c in r.candidates]
            positive = [k for k, kind in enumerate(kinds) if kind > 0]
            negative = [k for k, kind in enumerate(kinds) if kind == 0]
            picked += [(r, k) for k in positive]
            picked += [(r, int(k)) for k in rng.permutation(negative)[:NEGATIVES]]
        qa, tokenizer = question_answerer(HUB_ID, pretrained, [t for r, k in picked for t in (" ".join(r.question), r.candidate_text[k])])  # fmt: skip
        net = Reader(qa).to(where)
        budget.log(describe(net, HUB_ID, pretrained))
        max_length = SMOKE_MAX_LENGTH if smoke else MAX_LENGTH

        def char_span(r: Record, k: int) -> tuple[int, int] | None:
            """The short span's characters in candidate ``k``'s text, when it lies there."""
            a, b = r.candidates[k]
            if r.short is None or not (a <= r.short[0] and r.short[1] <= b):
                return None
            before = len(" ".join(r.tokens[a : r.short[0]])) + (r.short[0] > a)
            return before, before + len(" ".join(r.tokens[r.short[0] : r.short[1]]))

        def windows(pairs: list[tuple[Record, int]], labelled: bool) -> dict[str, np.ndarray]:
            answers = [char_span(r, k) for r, k in pairs] if labelled else None
            tokens = encode_windows(tokenizer, [" ".join(r.question) for r, _ in pairs],
                                    [r.candidate_text[k] for r, k in pairs], max_length, 0, answers)  # fmt: skip
            first = np.flatnonzero(np.r_[True, np.diff(tokens["sample"]) != 0])  # cut, not slid
            return {name: v[first] for name, v in tokens.items()}

        fit_tokens = windows(picked, True)
        kind_targets = torch.tensor([kind_of(r, r.candidates[k]) for r, k in picked], device=where)
        start, end = torch.from_numpy(fit_tokens["start"]).to(where), torch.from_numpy(fit_tokens["end"]).to(where)  # fmt: skip

        def run(tokens: dict[str, np.ndarray], rows: np.ndarray) -> tuple[torch.Tensor, ...]:
            mask = tokens["attention_mask"][rows]
            width = max(1, int(mask.sum(axis=1).max()))
            ids = torch.from_numpy(tokens["input_ids"][rows, :width]).to(where)
            with autocast(where):
                return net(ids, torch.from_numpy(mask[:, :width]).to(where))

        def loss_of(rows: np.ndarray) -> torch.Tensor:
            s_log, e_log, k_log = run(fit_tokens, rows)
            has_span = kind_targets[rows] == 1
            loss = F.cross_entropy(k_log.float(), kind_targets[rows])
            if has_span.any():
                loss = loss + span_loss(s_log[has_span], e_log[has_span], start[rows][has_span], end[rows][has_span])  # fmt: skip
            return loss

        batch = SMOKE_BATCH if smoke else BATCH_SIZE
        n_predict = sum(len(r.candidates) for r in val_books + test)
        fit(net, len(picked), loss_of, epochs=EPOCHS, batch_size=batch,
            lr=SMOKE_LR if smoke else LR, budget=budget, max_steps=SMOKE_STEPS if smoke else None,
            predict_rows=n_predict, reserve_s=RESERVE_S, seed=SEED)  # fmt: skip
        net.eval()

        def read(books: list[Record]) -> list[tuple[str, str, float, float]]:
            """Per record: (long, short, long confidence, short confidence)."""
            pairs = [(r, k) for r in books for k in range(len(r.candidates))]
            tokens = windows(pairs, False)
            width = tokens["input_ids"].shape[1]

            def scores(rows: np.ndarray) -> torch.Tensor:
                s_log, e_log, k_log = run(tokens, rows)
                pad = (0, width - s_log.shape[1])
                return torch.cat([F.pad(s_log.float(), pad, value=-1e9), F.pad(e_log.float(), pad, value=-1e9), k_log.float()], 1)  # fmt: skip

            out = predict_rows(scores, len(pairs), BATCH_SIZE)
            prob = softmax(out[:, 2 * width :])
            found, at = [], 0
            for r in books:
                n = len(r.candidates)
                if n == 0:
                    found.append(("", "", 0.0, 0.0))
                    continue
                p = prob[at : at + n]
                best = int(np.argmax(1 - p[:, 0]))
                row = at + best
                at += n
                a, b = r.candidates[best]
                kind = 1 + int(np.argmax(p[best, 1:]))
                short = KINDS[kind] if kind >= 3 else ""
                if kind == 1:
                    s_log, e_log, spans = out[row, :width], out[row, width : 2 * width], tokens["offsets"][row]  # fmt: skip
                    valid = np.flatnonzero(spans[:, 0] >= 0)
                    if len(valid):
                        s = valid[np.argmax(s_log[valid])]
                        after = valid[(valid >= s) & (valid < s + MAX_ANSWER_TOKENS)]
                        e = after[np.argmax(e_log[after])]
                        text = r.candidate_text[best]
                        first = a + len(text[: spans[s, 0]].split())
                        last = a + len(text[: spans[e, 1]].split())
                        short = f"{first}:{max(last, first + 1)}"
                short_conf = float(p[best, 1] if kind == 1 else p[best, kind])
                found.append((f"{a}:{b}", short, float(1 - p[best, 0]), short_conf))
            return found

        def net_rows(books: list[Record], found: list[tuple[str, str, float, float]], long_cut: float, short_cut: float) -> list[tuple[str, str]]:  # fmt: skip
            rows = []
            for r, (long, short, p_long, p_short) in zip(books, found, strict=True):
                rows += [(f"{r.id}_long", long if p_long > long_cut else ""),
                         (f"{r.id}_short", short if p_short > short_cut and p_long > long_cut else "")]  # fmt: skip
            return rows

        val_found, test_found = read(val_books), read(test)
        long_cut = max(THRESHOLDS, key=lambda t: micro_f1(val_books, net_rows(val_books, val_found, t, 1.0)))  # fmt: skip
        short_cut = max(THRESHOLDS, key=lambda t: micro_f1(val_books, net_rows(val_books, val_found, long_cut, t)))  # fmt: skip
        budget.log(f"reader thresholds: long {long_cut:.3f}, short {short_cut:.3f}")
        candidates["transformer"] = (net_rows(val_books, val_found, long_cut, short_cut), net_rows(test, test_found, long_cut, short_cut))  # fmt: skip

    scores = {n: micro_f1(val_books, v) for n, (v, _) in candidates.items()}
    best = max(scores, key=lambda name: scores[name])
    budget.log("hold-out micro-F1: " + ", ".join(f"{n} {s:.5f}" for n, s in scores.items())
               + f"; submitting {best}")  # fmt: skip
    metric_line(METRIC, scores[best], f"{HOLDOUT:.0%} hold-out of {len(train):,} records, {best}")
    submission = pd.DataFrame(candidates[best][1], columns=["example_id", "PredictionString"])
    write_submission(submission, out_path, budget)
    return float(scores[best])


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
