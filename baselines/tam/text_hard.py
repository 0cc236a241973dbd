"""tam/text/hard (Eedi misconceptions): rank every misconception for each wrong answer by TF-IDF
similarity of the question (construct name, question text, answer text) to the misconception's
name and to the training answers tagged with it.

    python -m baselines run --task tam/text/hard
    python -m baselines.tam.text_hard --public-dir DATA/text/hard/prepared/public --out submission.csv

Reads public/train.csv, public/test.csv and public/misconception_mapping.csv; writes
``QuestionId_Answer,MisconceptionId`` with the TOP ids, best first, for every wrong answer of
every row of sample_submission.csv (the wrong answers of the test questions). A misconception's score is
NAME_WEIGHT times the similarity to its name plus the mean similarity to the training answers
labelled with it. Metric: MAP@25 on hold-out questions (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer

from baselines.kit import Budget, metric_line, standalone, write_submission

METRIC = "map25"
SEED = 0  # hold-out split
HOLDOUT = 0.2  # share of the training questions kept back
TOP = 25  # ids per row, the metric's cut-off
NAME_WEIGHT = 0.5  # weight of the similarity to the misconception's own name
SMOKE_QUESTIONS = 60  # --smoke: learn from this many questions
TIME_BUDGET_S = 5 * 60.0  # the whole script, data to file
THREADS = 1  # small data: one thread


def wrong_answers(questions: pd.DataFrame, labelled: bool) -> pd.DataFrame:
    """One row per incorrect answer: its id, its text (construct, question, answer) and label."""
    rows = []
    for _, q in questions.iterrows():
        for letter in "ABCD":
            if letter == q["CorrectAnswer"]:
                continue
            label = q.get(f"Misconception{letter}Id") if labelled else None
            if labelled and pd.isna(label):
                continue
            text = f"{q['ConstructName']} {q['QuestionText']} {q[f'Answer{letter}Text']}"
            rows.append({"QuestionId_Answer": f"{q['QuestionId']}_{letter}", "text": text,
                         "label": None if label is None else int(label)})  # fmt: skip
    return pd.DataFrame(rows)


def rank(train: pd.DataFrame, queries: pd.DataFrame, names: pd.DataFrame) -> list[list[int]]:
    vectors = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True)
    vectors.fit(pd.concat([train.text, queries.text, names.MisconceptionName]))
    q = vectors.transform(queries.text)
    score = NAME_WEIGHT * (q @ vectors.transform(names.MisconceptionName).T).toarray()
    by_label = train.groupby("label").text.apply(" ".join)
    positions = names.MisconceptionId.to_numpy()
    column = {m: i for i, m in enumerate(positions)}
    tagged = (q @ vectors.transform(by_label.to_numpy()).T).toarray()
    for j, label in enumerate(by_label.index):
        score[:, column[int(label)]] += tagged[:, j]
    return [positions[np.argsort(-row, kind="stable")[:TOP]].tolist() for row in score]


def map_at_25(ranked: list[list[int]], truth: list[int]) -> float:
    return float(
        np.mean(
            [1 / (r.index(t) + 1) if t in r else 0.0 for r, t in zip(ranked, truth, strict=True)]
        )
    )


def main(
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float = TIME_BUDGET_S,
    threads: int = THREADS,
) -> float:
    budget = Budget(time_budget_s)
    questions = pd.read_csv(public_dir / "train.csv")
    test = pd.read_csv(public_dir / "test.csv")
    names = pd.read_csv(public_dir / "misconception_mapping.csv")
    if smoke:
        questions = questions.iloc[:SMOKE_QUESTIONS]
    budget.log(f"read train.csv: {len(questions):,} questions; test.csv: {len(test):,}")

    rng = np.random.default_rng(SEED)
    held = set(
        rng.choice(questions.QuestionId, max(1, int(HOLDOUT * len(questions))), replace=False)
    )
    fit = wrong_answers(questions[~questions.QuestionId.isin(held)], labelled=True)
    val = wrong_answers(questions[questions.QuestionId.isin(held)], labelled=True)
    score = map_at_25(rank(fit, val, names), val.label.astype(int).tolist())
    metric_line(METRIC, score, f"{len(held)} hold-out questions")
    wanted = pd.read_csv(public_dir / "sample_submission.csv").QuestionId_Answer
    queries = wrong_answers(test, labelled=False).set_index("QuestionId_Answer")
    queries = queries.loc[wanted].reset_index()  # the rows the sample asks for, in its order
    ranked = rank(wrong_answers(questions, labelled=True), queries, names)
    out = pd.DataFrame({"QuestionId_Answer": queries.QuestionId_Answer,
                        "MisconceptionId": [" ".join(map(str, r)) for r in ranked]})  # fmt: skip
    write_submission(out, out_path, budget)
    return score


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
