"""AI4Code: put each notebook's markdown cells back among its code cells (whose order is
given). On a GPU, a pointwise ranker: DistilRoBERTa reads a markdown cell with the notebook's
code cells (each cut short) and regresses the share of code cells that precede it; on a CPU,
ridge regression on each cell's TF-IDF for its relative place in a notebook, code cells and
markdown alike, the markdown cells then slotted among the code cells by those places. With
both (``--smoke`` runs both), the better on the hold-out by Kendall tau is submitted.

    python -m baselines run --task mlebench/AI4Code
    python -m baselines.mlebench.ai4code --public-dir DATA/AI4Code/prepared/public --out submission.csv

Why: the code cells come in their true order, so only each markdown cell's slot is unknown,
and a pointwise model (one number a markdown cell: where among the code it goes) was the
backbone of the strong Kaggle entries (a transformer over the markdown with a sample of the
notebook's code as context). Without a GPU, words alone say much about place in a notebook
("import", "load", "submission"); predicting the place of the code cells too, and forcing
their predictions into their known order, turns the markdown cell's predicted place into a
slot between two code cells. Reads public/train_orders.csv, public/train/<id>.json and the
test notebooks of public/sample_submission.csv; never train_ancestors.csv (not needed).
Writes ``id,cell_order``. Validation: 10% of the training notebooks. Metric: Kendall tau over
all notebooks together (higher is better).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import Ridge

from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.text import describe, encode, forward_rows, predict_logits, text_classifier
from baselines.torchkit import autocast, fit, pick_device, setup, sigmoid

METRIC = "kendall_tau"
SEED = 0  # hold-out split, notebook sample, network weights, batches
MAX_TRAIN_NOTEBOOKS = 20_000  # notebooks read for training (of 119k): reading is the cost
ALPHA = 1.0  # ridge: L2 strength
MAX_FEATURES = 100_000  # TF-IDF: word 1-2-grams kept
HUB_ID = "distilbert/distilroberta-base"  # 6-layer RoBERTa (82M parameters)
MAX_LENGTH = 256  # tokens of markdown + code context
CODE_CELLS = 20  # code cells of context, evenly spread over the notebook ...
CODE_CHARS = 60  # ... each cut to this many characters
MARKDOWN_CHARS = 300  # markdown text cut to this many characters
EPOCHS = 1  # passes over the training markdown cells (the time budget may stop sooner)
BATCH_SIZE = 32  # markdown cells per step
LR = 3e-5  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.1  # share of training notebooks held out to choose between the models
TRANSFORMER_ON_CPU = False  # a full fine-tune does not fit a CPU budget: the ridge there
SMOKE_NOTEBOOKS = 100  # --smoke: train on this many notebooks ...
SMOKE_MAX_LENGTH = 8  # ... transformer inputs of this many tokens (every test row is predicted) ...
SMOKE_STEPS = 2  # ... for this many transformer steps (it runs on a CPU too) ...
SMOKE_BATCH = 4  # ... of this many markdown cells ...
SMOKE_LR = 5e-4  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 30 * 60.0  # the whole script, data to file
THREADS = CORES  # CPU training
RESERVE_S = 20.0  # kept back for writing (prediction time is measured and kept back too)
LOG_EVERY = 5_000  # progress line every this many notebooks read


@dataclass
class Notebook:
    id: str
    code: list[str]  # code cell ids in their (true) order
    markdown: list[str]  # markdown cell ids, shuffled
    source: dict[str, str]
    order: list[str] | None = None  # the true order (training notebooks)


def read_notebook(path: Path, order: str | None = None) -> Notebook:
    cells = json.loads(path.read_text(encoding="utf-8"))
    kinds, source = cells["cell_type"], cells["source"]
    return Notebook(
        path.stem,
        [c for c, kind in kinds.items() if kind == "code"],
        [c for c, kind in kinds.items() if kind != "code"],
        {c: str(text) for c, text in source.items()},
        order.split() if order is not None else None,
    )


def inversions(ranks: np.ndarray) -> int:
    return int(np.triu(ranks[:, None] > ranks[None, :], k=1).sum())


def kendall_tau(notebooks: list[Notebook], orders: list[list[str]]) -> float:
    """The competition's metric: 1 - 4 * inversions / sum of n(n - 1), over all notebooks."""
    wrong = pairs = 0
    for book, guess in zip(notebooks, orders, strict=True):
        assert book.order is not None
        place = {c: k for k, c in enumerate(guess)}
        wrong += inversions(np.array([place[c] for c in book.order]))
        pairs += len(guess) * (len(guess) - 1)
    return 1 - 4 * wrong / max(pairs, 1)


def slot(book: Notebook, code_keys: np.ndarray, markdown_keys: np.ndarray) -> list[str]:
    """The cell order: code cells in their order, each markdown cell before the first code
    cell whose key (made non-decreasing) is at least its own. Ties break by position, never by
    cell id: code cells sharing a key (a plateau of the running maximum) keep their order."""
    code_keys = np.maximum.accumulate(code_keys) if len(code_keys) else code_keys
    keyed = [(float(k), 1, n, c) for n, (k, c) in enumerate(zip(code_keys, book.code, strict=True))]  # fmt: skip
    keyed += [(float(k), 0, n, c) for n, (k, c) in enumerate(zip(markdown_keys, book.markdown, strict=True))]  # fmt: skip
    return [c for *_, c in sorted(keyed)]


def place_targets(book: Notebook) -> dict[str, float]:
    """Each cell's place in the true order, 0 (first) to 1 (last)."""
    assert book.order is not None
    n = max(1, len(book.order) - 1)
    return {c: k / n for k, c in enumerate(book.order)}


def code_share_before(book: Notebook) -> dict[str, float]:
    """Each markdown cell's share of the notebook's code cells that precede it."""
    assert book.order is not None
    seen, out = 0, {}
    for c in book.order:
        if c in book.markdown:
            out[c] = seen / max(1, len(book.code))
        else:
            seen += 1
    return out


def context(book: Notebook, cell: str, sep: str) -> str:
    """A markdown cell's text, ``sep``, and a spread of the notebook's code cells, cut short."""
    picks = np.unique(np.linspace(0, len(book.code) - 1, min(CODE_CELLS, len(book.code))).astype(int))  # fmt: skip
    code = " | ".join(book.source[book.code[k]][:CODE_CHARS].replace("\n", " ") for k in picks)
    return f"{book.source[cell][:MARKDOWN_CHARS]}{sep}{code}"


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
    orders = pd.read_csv(public_dir / "train_orders.csv", dtype=str)
    sample = pd.read_csv(public_dir / "sample_submission.csv", dtype=str)
    keep = SMOKE_NOTEBOOKS if smoke else MAX_TRAIN_NOTEBOOKS
    orders = orders.sample(n=min(keep, len(orders)), random_state=SEED)
    train: list[Notebook] = []
    for k, (notebook_id, order) in enumerate(orders.itertuples(index=False)):
        train.append(read_notebook(public_dir / "train" / f"{notebook_id}.json", order))
        if (k + 1) % LOG_EVERY == 0:
            budget.log(f"read {k + 1:,} of {len(orders):,} training notebooks")
    test = [read_notebook(public_dir / "test" / f"{i}.json") for i in sample["id"]]
    budget.log(f"read {len(train):,} training notebooks, {len(test):,} test ones; device {where}")
    n_val = max(1, round(len(train) * HOLDOUT))
    fit_books, val_books = train[n_val:], train[:n_val]  # orders were sampled in random order

    def cells(books: list[Notebook]) -> tuple[list[str], list[str]]:
        """(cell text, its notebook's id + cell id) of every code cell, then markdown."""
        texts, keys = [], []
        for book in books:
            for c in book.code + book.markdown:
                texts.append(("[code] " if c in book.code else "[markdown] ") + book.source[c])
                keys.append(f"{book.id}/{c}")
        return texts, keys

    vectorizer = TfidfVectorizer(
        ngram_range=(1, 2), sublinear_tf=True, min_df=2, max_features=MAX_FEATURES,
        token_pattern=r"[A-Za-z_#\[\]]+",
    )  # fmt: skip
    fit_texts, fit_keys = cells(fit_books)
    x_fit = vectorizer.fit_transform(fit_texts)
    places = {f"{b.id}/{c}": p for b in fit_books for c, p in place_targets(b).items()}
    ridge = Ridge(alpha=ALPHA).fit(x_fit, [places[k] for k in fit_keys])
    budget.log(f"ridge on {x_fit.shape[0]:,} cells, {x_fit.shape[1]:,} TF-IDF features")

    def ridge_orders(books: list[Notebook]) -> list[list[str]]:
        texts, keys = cells(books)
        predicted = dict(zip(keys, ridge.predict(vectorizer.transform(texts)), strict=True))
        return [
            slot(b, np.array([predicted[f"{b.id}/{c}"] for c in b.code]),
                 np.array([predicted[f"{b.id}/{c}"] for c in b.markdown]))
            for b in books
        ]  # fmt: skip

    candidates = {"ridge": (ridge_orders(val_books), ridge_orders(test))}

    if where.type == "cuda" or TRANSFORMER_ON_CPU or smoke:
        rows = [(b, c) for b in fit_books for c in b.markdown]
        targets = torch.tensor(
            [code_share_before(b)[c] for b, c in rows], dtype=torch.float32, device=where
        )
        texts = [context(b, c, " ") for b, c in rows]
        net, tokenizer = text_classifier(HUB_ID, 1, pretrained, texts)
        net.to(where)
        budget.log(describe(net, HUB_ID, pretrained))
        max_length = SMOKE_MAX_LENGTH if smoke else MAX_LENGTH
        sep = tokenizer.sep_token
        tokens = encode(tokenizer, [context(b, c, sep) for b, c in rows], max_length)
        forward = forward_rows(net, tokens, where)

        def loss_of(picked: np.ndarray) -> torch.Tensor:
            with autocast(where):
                logits = forward(picked)
            return F.binary_cross_entropy_with_logits(logits.float()[:, 0], targets[picked])

        batch = SMOKE_BATCH if smoke else BATCH_SIZE
        n_predict = sum(len(b.markdown) for b in val_books + test)
        fit(net, len(rows), loss_of, epochs=EPOCHS, batch_size=batch,
            lr=SMOKE_LR if smoke else LR, budget=budget, max_steps=SMOKE_STEPS if smoke else None,
            predict_rows=n_predict, reserve_s=RESERVE_S, seed=SEED)  # fmt: skip

        def ranker_orders(books: list[Notebook]) -> list[list[str]]:
            texts = [context(b, c, sep) for b in books for c in b.markdown]
            shares = sigmoid(predict_logits(net, encode(tokenizer, texts, max_length), where, BATCH_SIZE)[:, 0])  # fmt: skip
            out, at = [], 0
            for b in books:
                code_keys = (np.arange(len(b.code)) + 0.5) / max(1, len(b.code))
                out.append(slot(b, code_keys, shares[at : at + len(b.markdown)]))
                at += len(b.markdown)
            return out

        candidates["transformer"] = (ranker_orders(val_books), ranker_orders(test))

    scores = {n: kendall_tau(val_books, v) for n, (v, _) in candidates.items()}
    best = max(scores, key=lambda name: scores[name])
    budget.log("hold-out kendall tau: " + ", ".join(f"{n} {s:.5f}" for n, s in scores.items())
               + f"; submitting {best}")  # fmt: skip
    metric_line(METRIC, scores[best], f"{HOLDOUT:.0%} hold-out of {len(train):,} notebooks, {best}")
    submission = pd.DataFrame(
        {"id": [b.id for b in test], "cell_order": [" ".join(o) for o in candidates[best][1]]}
    )
    write_submission(submission, out_path, budget)
    return float(scores[best])


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
