"""tensorflow2-question-answering: Natural Questions records in Kaggle's simplified form.

A record is a Wikipedia-like page as one space-separated string of words and HTML tags
(``<H1>``, ``<P>``, ``<Table>``/``<Tr>``/``<Td>``, ``<Ul>``/``<Li>``), its long-answer
candidates (the spans of its paragraphs, tables, rows, lists and items: ``start_token``,
``end_token`` exclusive, ``top_level``), a question, and one annotation: a long answer (a
candidate, or ``-1`` everywhere), short answers (token spans) and a yes/no answer. The
question says what to look for, which is the signal: "what is the <attribute> of <entity>"
is answered by the paragraph holding "the <attribute> of <entity> is <answer> ." (the answer
words are the short answer, the paragraph the long one), "where does <entity> <verb>" by the
paragraph with "<entity> <verb>" (long answer only), "is <entity> <adjective>" by the one with
"<entity> is [not] <adjective>" (YES or NO), and a question whose entity the page never names
has no answer (about half of them, as in Kaggle's data). Pages are about ``side`` tokens long
(at full size 5,500, which makes the test records 1.7 GB, as Kaggle's 17 GB of 307,373
records make upstream's).

Public: ``simplified-nq-train.jsonl`` (whole records), ``simplified-nq-test.jsonl``
(``example_id, question_text, document_text, long_answer_candidates``) and
``sample_submission.csv`` (``<id>_short`` and ``<id>_long`` rows, blank predictions). Private:
``test.jsonl`` (the test records, whole) and ``gold_submission.csv`` (the first short answer
or yes/no, and the long answer, as ``start:end``). Records are written as pandas' ``to_json``
writes them (compact, ``/`` escaped, keys in Kaggle's order, ``example_id`` as text); upstream
splits each chunk of 1,000 records 90/10, so the test records come in chunk order, shuffled
within each chunk.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .common import Size

CHUNK = 1_000
ATTRIBUTES = ["capital", "author", "founder", "population", "director", "symbol", "origin"]
VERBS = ["flow", "live", "grow", "meet", "begin", "end", "operate"]
ADJECTIVES = ["famous", "ancient", "large", "popular", "active", "official"]
KINDS = ["fact", "long", "yes_no", "none"]
SHARES = [0.33, 0.16, 0.015, 0.495]


def vocabulary(size: int = 3_000) -> np.ndarray:
    """Filler words made of syllables, the same for every fixture."""
    rng = np.random.default_rng(20_191_024)
    syllables = [c + v for c in "bcdfghklmnprstvz" for v in "aeiou"]
    words = {"".join(rng.choice(syllables, int(rng.integers(1, 4)))) for _ in range(3 * size)}
    return np.array(sorted(words)[:size])


def record(rng: np.random.Generator, words: np.ndarray, n_tokens: int, kind: str) -> dict[str, Any]:
    """One Natural Questions record (without its example id)."""
    filler = words[rng.integers(len(words), size=n_tokens + 200)].tolist()
    entity = " ".join(w.capitalize() for w in words[rng.integers(len(words), size=2)])
    attribute = ATTRIBUTES[int(rng.integers(len(ATTRIBUTES)))]
    verb, adjective = VERBS[int(rng.integers(len(VERBS)))], ADJECTIVES[int(rng.integers(6))]
    answer = [w.capitalize() for w in words[rng.integers(len(words), size=int(rng.integers(1, 4)))]]
    negated = bool(rng.random() < 0.4)
    title = entity if kind != "none" else " ".join(w.capitalize() for w in filler[:2])
    tokens = ["<H1>", *title.split(), "</H1>"]
    candidates: list[dict[str, Any]] = []
    blocks = int(np.clip(n_tokens // 50, 3, 400))
    target = int(rng.integers(blocks))  # the block holding the answer
    long_answer, short_answers = {"start_token": -1, "candidate_index": -1, "end_token": -1}, []
    used = 2
    for b in range(blocks):
        length = int(rng.integers(20, 80))
        text = filler[used : used + length]
        used = (used + length) % n_tokens
        if b == target and kind != "none":
            lead = text[: len(text) // 2]
            if kind == "fact":
                fact = ["the", attribute, "of", *entity.split(), "is"]
                start = len(tokens) + 1 + len(lead) + len(fact)
                short_answers = [{"start_token": start, "end_token": start + len(answer)}]
                text = [*lead, *fact, *answer, ".", *text[len(text) // 2 :]]
            elif kind == "long":
                text = [*lead, *entity.split(), verb, "here", *text[len(text) // 2 :]]
            else:
                said = [*entity.split(), "is", *(["not"] if negated else []), adjective]
                text = [*lead, *said, *text[len(text) // 2 :]]
            shape = "p"
        else:
            shape = rng.choice(["p", "table", "list"], p=[0.7, 0.15, 0.15])
        first = len(tokens)
        if shape == "p":
            tokens += ["<P>", *text, "</P>"]
        elif shape == "table":
            tokens.append("<Table>")
            for r in range(0, len(text), 8):
                candidates.append(
                    {"start_token": len(tokens), "top_level": False, "end_token": len(tokens) + 10}
                )
                cells = text[r : r + 8] + ["-"] * (8 - len(text[r : r + 8]))
                tokens += [
                    "<Tr>",
                    "<Td>",
                    *cells[:4],
                    "</Td>",
                    "<Td>",
                    *cells[4:],
                    "</Td>",
                    "</Tr>",
                ]
                candidates[-1]["end_token"] = len(tokens)
            tokens.append("</Table>")
        else:
            tokens.append("<Ul>")
            for r in range(0, len(text), 10):
                item = text[r : r + 10]
                candidates.append(
                    {
                        "start_token": len(tokens),
                        "top_level": False,
                        "end_token": len(tokens) + len(item) + 2,
                    }
                )
                tokens += ["<Li>", *item, "</Li>"]
            tokens.append("</Ul>")
        candidates.append({"start_token": first, "top_level": True, "end_token": len(tokens)})
        if b == target and kind != "none":
            long_answer = {
                "start_token": first,
                "candidate_index": len(candidates) - 1,
                "end_token": len(tokens),
            }
    candidates.sort(key=lambda c: (c["start_token"], -c["end_token"]))
    if kind != "none":
        long_answer["candidate_index"] = next(
            k
            for k, c in enumerate(candidates)
            if c["start_token"] == long_answer["start_token"] and c["top_level"]
        )
    if kind == "fact":
        question = f"what is the {attribute} of {entity.lower()}"
    elif kind == "long":
        question = f"where does {entity.lower()} {verb}"
    elif kind == "yes_no":
        question = f"is {entity.lower()} {adjective}"
    else:
        question = f"what is the {attribute} of {' '.join(filler[-2:])}"
    annotation = {
        "yes_no_answer": ("NO" if negated else "YES") if kind == "yes_no" else "NONE",
        "long_answer": long_answer,
        "short_answers": short_answers,
        "annotation_id": int(rng.integers(10**18, 2 * 10**18)),
    }
    slug = "_".join(title.split())
    return {
        "document_text": " ".join(tokens),
        "long_answer_candidates": candidates,
        "question_text": question,
        "annotations": [annotation],
        "document_url": f"https://en.wikipedia.org//w/index.php?title={slug}&amp;oldid={int(rng.integers(10**8, 10**9))}",
    }


def line(fields: dict[str, Any]) -> str:
    """A JSON line as pandas' ``to_json(orient="records", lines=True)`` writes it."""
    return json.dumps(fields, separators=(",", ":")).replace("/", "\\/") + "\n"


def gold_rows(example_id: str, annotation: dict[str, Any]) -> list[tuple[str, str]]:
    """Upstream's gold: the short answer (yes/no first, else the first span), then the long."""
    if annotation["yes_no_answer"] != "NONE":
        short = annotation["yes_no_answer"]
    elif annotation["short_answers"]:
        first = annotation["short_answers"][0]
        short = f"{first['start_token']}:{first['end_token']}"
    else:
        short = ""
    long = annotation["long_answer"]
    long_text = f"{long['start_token']}:{long['end_token']}" if long["start_token"] != -1 else ""
    return [(f"{example_id}_short", short), (f"{example_id}_long", long_text)]


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    words = vocabulary()
    n = size.n_train + size.n_test
    is_test = np.zeros(n, bool)
    is_test[rng.choice(n, size.n_test, replace=False)] = True
    ids = np.unique(rng.integers(-(2**63), 2**63 - 1, n + 16))[:n]  # distinct, then shuffled
    ids = ids[rng.permutation(len(ids))]
    kinds = rng.choice(len(KINDS), n, p=SHARES)
    kinds[:3] = [0, 1, 3]  # a fact, a long answer and no answer, however small the fixture
    mean = max(size.side, 100)
    gold: list[tuple[str, str]] = []
    with (
        open(public / "simplified-nq-train.jsonl", "w", encoding="utf-8") as train,
        open(private / "test.jsonl", "w", encoding="utf-8") as test,
        open(public / "simplified-nq-test.jsonl", "w", encoding="utf-8") as public_test,
    ):
        for start in range(0, n, CHUNK):
            rows = np.arange(start, min(start + CHUNK, n))
            chunk_test = rows[is_test[rows]]
            chunk_train = rows[~is_test[rows]]
            for row in [
                *chunk_train[rng.permutation(len(chunk_train))],
                *chunk_test[rng.permutation(len(chunk_test))],
            ]:
                n_tokens = int(rng.integers(mean // 2, mean * 3 // 2))
                fields = record(rng, words, n_tokens, KINDS[kinds[row]])
                fields["example_id"] = str(ids[row])
                if not is_test[row]:
                    train.write(line(fields))
                    continue
                test.write(line(fields))
                public_test.write(
                    line(
                        {
                            k: fields[k]
                            for k in (
                                "example_id",
                                "question_text",
                                "document_text",
                                "long_answer_candidates",
                            )
                        }
                    )
                )
                gold += gold_rows(fields["example_id"], fields["annotations"][0])
    frame = pd.DataFrame(gold, columns=["example_id", "PredictionString"])
    frame.to_csv(private / "gold_submission.csv", index=False)
    frame.assign(PredictionString="").to_csv(public / "sample_submission.csv", index=False)
