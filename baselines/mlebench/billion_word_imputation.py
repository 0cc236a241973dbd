"""billion-word-imputation: a bigram language model counted on the training text finds, in
each test sentence, the gap most likely to have lost a word and the word most likely to fill
it, and puts the word back only when the model is confident enough to gain on average.

    python -m baselines run --task mlebench/billion-word-imputation
    python -m baselines.mlebench.billion_word_imputation --public-dir DATA/billion-word-imputation/prepared/public --out submission.csv

Why: the metric is the mean Levenshtein distance to the whole sentence, so leaving a sentence
alone costs the missing word's length plus a space, the right word in the right gap costs
nothing, and a wrong guess can cost more than leaving it. A word is missing where the words
either side of a gap are unlikely neighbours but likely with some word between them: for gap
(l, r) and candidate x, P(x | l) P(r | x) / P(r | l) (bigrams interpolated with unigrams), the
candidates being l's commonest followers. Normalised over the gaps of a sentence and the
candidates of a gap it is the probability that x belongs there; it is inserted when that
passes a threshold tuned on held-out training sentences with a word removed as upstream
removes it (never the first or last). Kaggle's strong entries used large n-gram or neural
models; a bigram model is the readable baseline that beats the unchanged sentences. The
training file holds 30M sentences: the first ``MAX_TRAIN_SENTENCES`` are counted. Reads
public/train_v2.txt.zip and public/test_v2.txt.zip; writes ``id,sentence``. Metric: mean
Levenshtein distance (lower is better).
"""

from __future__ import annotations

import io
import sys
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from baselines.kit import Budget, metric_line, standalone, write_submission

METRIC = "levenshtein"
SEED = 0  # held-out sentences and the words removed from them
MAX_TRAIN_SENTENCES = 2_000_000  # sentences counted from train_v2.txt (30M in all)
HOLDOUT = 2_000  # training sentences kept out of the counts to tune the threshold
LAMBDA = 0.9  # weight of the bigram estimate against the unigram one
CANDIDATES = 30  # a gap's candidate words: its left word's commonest followers
THRESHOLDS = np.linspace(0.0, 1.0, 41)  # confidence thresholds tried on the hold-out
CHUNK = 200_000  # sentences counted at a time
SCORE_CHUNK = 20_000  # sentences scored at a time (their gaps x candidates in memory)
SMOKE_SENTENCES = 1_000  # --smoke: count this many sentences ...
SMOKE_HOLDOUT = 200  # ... and tune on this many
TIME_BUDGET_S = 30 * 60.0  # the whole script, data to file
THREADS = 1  # numpy on one thread
START, END = "<s>", "</s>"


class Bigrams:
    """Unigram and bigram counts over integer word ids, and the interpolated P(w | v)."""

    def __init__(self, sentences: list[str]) -> None:
        self.vocab: dict[str, int] = {START: 0, END: 1}
        keys, unigrams = [], np.zeros(0, np.int64)
        for start in range(0, len(sentences), CHUNK):
            tokens = " ".join(f"{START} {s} {END}" for s in sentences[start : start + CHUNK])
            ids = self.ids(tokens.split(), grow=True)
            keys.append((ids[:-1] << 32) | ids[1:])
            unigrams = np.pad(unigrams, (0, len(self.vocab) - len(unigrams)))
            unigrams += np.bincount(ids, minlength=len(self.vocab))
        self.keys, counts = np.unique(np.concatenate(keys), return_counts=True)
        self.counts = counts.astype(np.float64)
        self.unk = len(self.vocab)  # an unseen word: counted never
        self.unigrams = np.append(unigrams, 0).astype(np.float64)
        self.unigram_p = (self.unigrams + 1) / (self.unigrams.sum() + len(self.unigrams))
        self.left = np.bincount(self.keys >> 32, self.counts, minlength=len(self.unigrams))
        self.words = np.array(list(self.vocab), dtype=object)
        self.followers = self._followers()

    def ids(self, tokens: list[str], grow: bool = False) -> np.ndarray:
        if grow:
            return np.array([self.vocab.setdefault(t, len(self.vocab)) for t in tokens], np.int64)
        return np.array([self.vocab.get(t, self.unk) for t in tokens], np.int64)

    def _followers(self) -> np.ndarray:
        """(vocabulary + 1, CANDIDATES) each word's commonest followers (``END`` pads)."""
        left, right = self.keys >> 32, self.keys & 0xFFFFFFFF
        order = np.lexsort((-self.counts, left))
        first = np.searchsorted(left[order], left[order], side="left")
        rank = np.arange(len(order)) - first
        keep = order[rank < CANDIDATES]
        table = np.full((len(self.unigrams), CANDIDATES), 1, np.int64)
        table[left[keep], rank[rank < CANDIDATES]] = right[keep]
        return table

    def p(self, v: np.ndarray, w: np.ndarray) -> np.ndarray:
        """P(w | v), bigram relative frequency interpolated with add-one unigrams."""
        keys = (v << 32) | w
        at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        pair = np.where(self.keys[at] == keys, self.counts[at], 0.0)
        bigram = np.divide(pair, self.left[v], out=np.zeros_like(pair), where=self.left[v] > 0)
        return LAMBDA * bigram + (1 - LAMBDA) * self.unigram_p[w]


def best_insertions(model: Bigrams, sentences: list[list[str]]) -> tuple[np.ndarray, ...]:
    """Per sentence: the best gap (insert before that token), the word id to insert there,
    and the model's probability that this is the missing word in its place."""
    gap_of, sentence_of, lefts, rights = [], [], [], []
    for k, tokens in enumerate(sentences):
        ids = model.ids(tokens)
        gaps = np.arange(1, len(ids))  # never before the first token nor after the last
        gap_of.append(gaps)
        sentence_of.append(np.full(len(gaps), k))
        lefts.append(ids[gaps - 1])
        rights.append(ids[gaps])
    gap, owner = np.concatenate(gap_of), np.concatenate(sentence_of)
    left, right = np.concatenate(lefts), np.concatenate(rights)
    candidates = model.followers[left]  # (gaps, CANDIDATES)
    joint = model.p(left[:, None], candidates) * model.p(candidates, right[:, None])
    joint[candidates == 1] = 0.0  # END is no word
    ratio = joint / model.p(left, right)[:, None]  # how much likelier with x between
    per_gap = ratio.sum(axis=1)
    per_sentence = np.bincount(owner, per_gap, minlength=len(sentences))
    top = joint.argmax(axis=1)
    confidence = ratio[np.arange(len(gap)), top] / np.maximum(per_sentence[owner], 1e-300)
    best_gap = np.full(len(sentences), -1)
    best_word = np.zeros(len(sentences), np.int64)
    best_conf = np.zeros(len(sentences))
    order = np.lexsort((confidence, owner))  # each sentence's most confident gap last
    last = np.r_[owner[order][1:] != owner[order][:-1], True]
    chosen = order[last]
    best_gap[owner[chosen]] = gap[chosen]
    best_word[owner[chosen]] = candidates[chosen, top[chosen]]
    best_conf[owner[chosen]] = confidence[chosen]
    return best_gap, best_word, best_conf


def restored(tokens: list[str], gap: int, word: str) -> str:
    return " ".join([*tokens[:gap], word, *tokens[gap:]]) if gap > 0 else " ".join(tokens)


def levenshtein(a: str, b: str) -> int:
    """Edit distance: the common prefix and suffix dropped (they never change it), then the
    dynamic programme over what differs, a row at a time in numpy."""
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    a, b = a[head : len(a) - tail], b[head : len(b) - tail]
    x = np.frombuffer(a.encode("utf-32-le"), np.uint32)
    y = np.frombuffer(b.encode("utf-32-le"), np.uint32)
    steps = np.arange(len(y) + 1)
    row = steps.copy()
    for ch in x:
        diagonal = row[:-1] + (y != ch)
        below = np.r_[row[0] + 1, np.minimum(row[1:] + 1, diagonal)]
        row = np.minimum.accumulate(below - steps) + steps
    return int(row[-1])


def main(
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float = TIME_BUDGET_S,
    threads: int = THREADS,
) -> float:
    budget = Budget(time_budget_s)
    limit = SMOKE_SENTENCES if smoke else MAX_TRAIN_SENTENCES
    with (
        zipfile.ZipFile(public_dir / "train_v2.txt.zip") as archive,
        io.TextIOWrapper(archive.open("train_v2.txt"), encoding="utf-8") as lines,
    ):
        corpus = [line.strip() for _, line in zip(range(limit), lines, strict=False)]
    test = pd.read_csv(public_dir / "test_v2.txt.zip", keep_default_na=False, dtype=str)
    budget.log(f"read train_v2.txt: {len(corpus):,} sentences; test_v2.txt: {len(test):,}")

    rng = np.random.default_rng(SEED)
    long_enough = np.flatnonzero([len(s.split()) >= 3 for s in corpus])
    n_held = min(SMOKE_HOLDOUT if smoke else HOLDOUT, len(long_enough) // 5)
    held = set(rng.choice(long_enough, n_held, replace=False).tolist())
    model = Bigrams([s for k, s in enumerate(corpus) if k not in held])
    budget.log(f"counted {len(model.keys):,} bigrams of {len(model.vocab):,} words")

    whole = [corpus[k].split() for k in sorted(held)]
    removed = [int(rng.integers(1, len(t) - 1)) for t in whole]
    damaged = [t[:g] + t[g + 1 :] for t, g in zip(whole, removed, strict=True)]
    gap, word, confidence = best_insertions(model, damaged)
    as_is = np.array([levenshtein(" ".join(w), " ".join(d)) for w, d in zip(whole, damaged, strict=True)])  # fmt: skip
    guessed = np.array(
        [levenshtein(" ".join(w), restored(d, g, model.words[x]))
         for w, d, g, x in zip(whole, damaged, gap, word, strict=True)]
    )  # fmt: skip
    costs = {t: float(np.where(confidence >= t, guessed, as_is).mean()) for t in THRESHOLDS}
    threshold = min(costs, key=lambda t: costs[t])
    right = np.mean((gap == np.array(removed)) & (model.words[word] == [w[g] for w, g in zip(whole, removed, strict=True)]))  # fmt: skip
    budget.log(f"hold-out: unchanged {as_is.mean():.3f}, always inserting {guessed.mean():.3f} "
               f"({right:.1%} exactly right), at threshold {threshold:.3f}: {costs[threshold]:.3f}")  # fmt: skip
    metric_line(METRIC, costs[threshold], f"{n_held:,} held-out sentences, a word removed")

    sentences = [s.split(" ") for s in test["sentence"]]
    out = []
    for start in range(0, len(sentences), SCORE_CHUNK):
        part = sentences[start : start + SCORE_CHUNK]
        gap, word, confidence = best_insertions(model, part)
        for tokens, g, x, c in zip(part, gap, word, confidence, strict=True):
            out.append(restored(tokens, g if c >= threshold else -1, model.words[x]))
        budget.log(f"restored {min(start + SCORE_CHUNK, len(sentences)):,}/{len(sentences):,}")
    inserted = np.mean([a != b for a, b in zip(out, test["sentence"], strict=True)])
    budget.log(f"a word put back in {inserted:.1%} of the test sentences")
    write_submission(pd.DataFrame({"id": test["id"], "sentence": out}), out_path, budget)
    return costs[threshold]


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
