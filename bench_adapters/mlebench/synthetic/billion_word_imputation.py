"""billion-word-imputation: English-like sentences from a small grammar, one word removed from
each test sentence (never the first or the last), to be put back.

Every sentence joins one to four clauses, each following one of a few templates of word
classes (determiner, adjective, noun, verb, preposition...), with punctuation as separate
tokens, as in the 1-billion-word corpus (about 25 tokens a sentence, as there); some quote a
speaker (``" ... , " she said .``), so quotes get CSV-escaped. Which word is missing, and which
word it was, can be told from the words around the gap: a bigram model fitted on the training
text puts many of them back.

Public: ``train_v2.txt.zip`` (``train_v2.txt``, one sentence a line) and ``test_v2.txt.zip``
(``test_v2.txt``: a CSV with the header ``"id","sentence"``, ids from 0, each sentence quoted,
with its word missing). Private: ``test.csv`` (the same ids with the whole sentences) and
``sample_submission.csv`` (``test_v2.txt`` itself). As upstream: about 1% of the sentences of
three or more words go to test, in corpus order.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from .common import Size

CHUNK = 200_000
TEST_SHARE = 0.01

CLASSES: dict[str, list[str]] = {
    "DET": ["the", "a", "this", "that", "every", "one", "another", "its"],
    "ADJ": ["new", "old", "small", "large", "local", "national", "young", "public", "former"],
    "NOUN": ["government", "company", "city", "team", "market", "report", "school", "court",
             "president", "police", "family", "bank", "season", "plan", "official", "price"],
    "NOUNS": ["officials", "people", "prices", "players", "students", "shares", "voters",
              "workers", "investors", "families", "troops", "results"],
    "VERB": ["said", "announced", "reported", "expected", "rejected", "approved", "won",
             "lost", "raised", "cut", "opened", "closed"],
    "PREP": ["in", "on", "for", "after", "before", "during", "with", "against"],
    "TIME": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "yesterday", "today",
             "2008", "2009", "March", "April", "May"],
    "PRON": ["he", "she", "they", "we", "it"],
    "ADV": ["also", "recently", "already", "still", "quickly", "finally"],
    "NUM": ["two", "three", "five", "10", "20", "100", "several", "many"],
}  # fmt: skip
TEMPLATES = [
    "DET ADJ NOUN VERB DET NOUN PREP TIME .",
    "DET NOUN ADV VERB NUM NOUNS PREP DET ADJ NOUN .",
    "NUM NOUNS VERB PREP DET NOUN , PRON VERB .",
    '" DET NOUN VERB NUM NOUNS , " PRON VERB .',
    "PREP TIME , DET ADJ NOUN VERB DET NOUN .",
    "PRON ADV VERB DET ADJ NOUN PREP DET NOUN PREP TIME .",
    "DET NOUN VERB PRON VERB NUM NOUNS .",
]

CONNECTIVES = [[",", "and"], [",", "but"], [";"], [",", "while"], [",", "so"]]
"""What joins two clauses of a sentence (the first clause's final "." dropped)."""


def _zipf(k: int) -> np.ndarray:
    """Word frequencies within a class: falling as 1/rank."""
    weights = 1 / np.arange(1, k + 1)
    return weights / weights.sum()


def clauses(rng: np.random.Generator, count: int) -> list[list[str]]:
    """``count`` clauses, each a template's tokens (ending with ".")."""
    pools = [[CLASSES.get(slot, [slot]) for slot in t.split()] for t in TEMPLATES]
    template = rng.integers(0, len(TEMPLATES), count)
    out: list[list[str]] = [[] for _ in range(count)]
    for t, pool in enumerate(pools):
        rows = np.flatnonzero(template == t)
        words = np.stack(
            [np.array(c)[rng.choice(len(c), len(rows), p=_zipf(len(c)))] for c in pool], axis=1
        )
        for row, tokens in zip(rows, words.tolist(), strict=True):
            out[row] = tokens
    return out


def sentences(rng: np.random.Generator, n: int) -> Iterator[list[list[str]]]:
    """``n`` sentences, ``CHUNK`` at a time, each a list of tokens: one to four clauses joined
    by a connective (about 25 tokens on average, as the corpus's sentences)."""
    for start in range(0, n, CHUNK):
        count = min(CHUNK, n - start)
        lengths = rng.choice([1, 2, 3, 4], count, p=[0.2, 0.35, 0.3, 0.15])
        parts = iter(clauses(rng, int(lengths.sum())))
        joins = iter(rng.choice(len(CONNECTIVES), int(lengths.sum())))
        out = []
        for length in lengths:
            tokens = next(parts)
            for _ in range(length - 1):
                tokens = tokens[:-1] + CONNECTIVES[next(joins)] + next(parts)
            out.append(tokens)
        yield out


def _csv_line(index: int, tokens: list[str]) -> str:
    """``<id>,"<sentence>"`` with quotes doubled, as upstream writes each row."""
    return f'{index},"{" ".join(tokens).replace(chr(34), chr(34) * 2)}"\n'


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    """``size.n_test`` test sentences, drawn at about 1% of the corpus, among
    ``size.n_train + size.n_test`` sentences."""
    n = size.n_train + size.n_test
    is_test = np.zeros(n, dtype=bool)
    is_test[np.sort(rng.choice(n, size.n_test, replace=False))] = True
    header = '"id","sentence"\n'
    with (
        zipfile.ZipFile(public / "train_v2.txt.zip", "w", zipfile.ZIP_DEFLATED) as train_zip,
        train_zip.open("train_v2.txt", "w", force_zip64=True) as train,
        open(private / "test.csv", "w", encoding="utf-8") as answers,
        open(private / "sample_submission.csv", "w", encoding="utf-8") as sample,
    ):
        answers.write(header)
        sample.write(header)
        row = test_id = 0
        for chunk in sentences(rng, n):
            lines = []
            for tokens in chunk:
                if is_test[row]:
                    gap = int(rng.integers(1, len(tokens) - 1))
                    answers.write(_csv_line(test_id, tokens))
                    sample.write(_csv_line(test_id, tokens[:gap] + tokens[gap + 1 :]))
                    test_id += 1
                else:
                    lines.append(" ".join(tokens) + "\n")
                row += 1
            train.write("".join(lines).encode("utf-8"))
    with zipfile.ZipFile(public / "test_v2.txt.zip", "w", zipfile.ZIP_DEFLATED) as test_zip:
        test_zip.write(private / "sample_submission.csv", arcname="test_v2.txt")
