"""Synthetic text tasks: text normalization, chatbot preferences and math misconceptions."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from bench_adapters.tam.synthetic.tables import _answers_gold

_WORDS = "the a of and to in is was for on with as by at from it that this be are an or his "
_WORDS += "her city river model north street music world history paper market school team field"
WORDS = _WORDS.split()
ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
ONES += "fifteen sixteen seventeen eighteen nineteen"
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety"
TENS = _TENS.split()


def spoken(number: int) -> str:
    """0-99 in words, as the competition's ``after`` text writes cardinals."""
    if number < 20:
        return ONES.split()[number]
    tens, ones = divmod(number, 10)
    return TENS[tens - 2] + ("" if ones == 0 else " " + ONES.split()[ones])


def _token(rng: np.random.Generator) -> tuple[str, str, str]:
    """(class, before, after) of one token."""
    kind = rng.choice(["PLAIN"] * 6 + ["PUNCT"] * 2 + ["CARDINAL", "LETTERS"])
    if kind == "PLAIN":
        word = str(rng.choice(WORDS))
        return kind, word, word
    if kind == "PUNCT":
        mark = str(rng.choice(list(".,;:!?")))
        return kind, mark, mark
    if kind == "CARDINAL":
        number = int(rng.integers(0, 100))
        return kind, str(number), spoken(number)
    letters = "".join(rng.choice(list("ABCDEFGHKLMNPRSTUVW"), int(rng.integers(2, 5))))
    return kind, letters, " ".join(letters.lower())


def text_normalization(public: Path, private: Path, rng: np.random.Generator) -> None:
    rows = []
    for sentence in range(300 + 60):
        for token in range(int(rng.integers(4, 12))):
            kind, before, after = _token(rng)
            rows.append((sentence, token, kind, before, after))
    frame = pd.DataFrame(rows, columns=["sentence_id", "token_id", "class", "before", "after"])
    train, test = frame[frame.sentence_id < 300], frame[frame.sentence_id >= 300]
    train.to_csv(public / "en_train.csv", index=False)
    test[["sentence_id", "token_id", "before"]].to_csv(public / "en_test.csv", index=False)
    ids = test.sentence_id.astype(str) + "_" + test.token_id.astype(str)
    pd.DataFrame({"id": ids, "after": test.before}).to_csv(
        public / "en_sample_submission.csv", index=False
    )
    pd.DataFrame({"id": ids, "before": test.before, "after": test.after}).to_csv(
        private / "test_labels.csv", index=False
    )


CHATBOTS = ["gpt-4-1106-preview", "claude-2.1", "llama-2-70b-chat", "vicuna-13b", "mixtral-8x7b"]
OUTCOMES = ["winner_model_a", "winner_model_b", "winner_tie"]


def _reply(rng: np.random.Generator) -> str:
    return " ".join(rng.choice(WORDS, int(rng.integers(3, 60))))


def chatbot_arena(public: Path, private: Path, rng: np.random.Generator) -> None:
    n_train, n_test = 500, 120
    rows = []
    for k in range(n_train + n_test):
        a, b = _reply(rng), _reply(rng)
        gap = (len(a.split()) - len(b.split())) / 20.0
        p = np.exp([gap, -gap, 0.4]) / np.exp([gap, -gap, 0.4]).sum()
        outcome = np.eye(3, dtype=int)[rng.choice(3, p=p)]
        rows.append(
            {
                "id": 30192 + 1013 * k,
                "model_a": str(rng.choice(CHATBOTS)),
                "model_b": str(rng.choice(CHATBOTS)),
                "prompt": json.dumps([" ".join(rng.choice(WORDS, 8))]),
                "response_a": json.dumps([a]),
                "response_b": json.dumps([b]),
                **dict(zip(OUTCOMES, outcome.tolist(), strict=True)),
            }
        )
    frame = pd.DataFrame(rows)
    train, test = frame.iloc[:n_train], frame.iloc[n_train:]
    train.to_csv(public / "train.csv", index=False)
    test[["id", "prompt", "response_a", "response_b"]].to_csv(public / "test.csv", index=False)
    uniform = dict.fromkeys(OUTCOMES, 1 / 3)
    test[["id"]].assign(**uniform).to_csv(public / "sample_submission.csv", index=False)
    test[["id", *OUTCOMES]].to_csv(private / "test_labels.csv", index=False)


TOPICS = ("fractions", "negative numbers", "place value", "angles", "area", "percentages")
ERRORS = ("adds the denominators", "ignores the sign", "confuses tens and units",
          "measures from the wrong side", "multiplies the sides twice", "divides by ten")  # fmt: skip


def misconceptions(public: Path, private: Path, rng: np.random.Generator) -> None:
    names = [f"Believes one {e} when working with {t}" for t in TOPICS for e in ERRORS]
    mapping = pd.DataFrame({"MisconceptionId": range(len(names)), "MisconceptionName": names})
    mapping.to_csv(public / "misconception_mapping.csv", index=False)
    questions, labels = [], []
    for q in range(160 + 40):
        topic = int(rng.integers(len(TOPICS)))
        correct = str(rng.choice(list("ABCD")))
        row: dict[str, object] = {
            "QuestionId": q,
            "ConstructId": 100 + topic,
            "ConstructName": f"Work with {TOPICS[topic]}",
            "SubjectId": 10 + topic,
            "SubjectName": TOPICS[topic].title(),
            "CorrectAnswer": correct,
            "QuestionText": f"Question {q}: a problem on {TOPICS[topic]} \\( {q % 17} + x \\)",
        }
        for letter in "ABCD":
            misconception = topic * len(ERRORS) + int(rng.integers(len(ERRORS)))
            if letter == correct:
                row[f"Answer{letter}Text"] = f"\\( {q % 17} \\)"
                row[f"Misconception{letter}Id"] = np.nan
                continue
            verb = ERRORS[misconception % len(ERRORS)].split()[0]
            row[f"Answer{letter}Text"] = f"\\( {rng.integers(1, 99)} \\) because one {verb}"
            row[f"Misconception{letter}Id"] = misconception
            if q >= 160:
                labels.append(
                    {"QuestionId_Answer": f"{q}_{letter}", "MisconceptionId": misconception}
                )
        questions.append(row)
    frame = pd.DataFrame(questions)
    order = ["QuestionId", "ConstructId", "ConstructName", "SubjectId", "SubjectName",
             "CorrectAnswer", "QuestionText"] + [f"Answer{x}Text" for x in "ABCD"]  # fmt: skip
    train, test = frame.iloc[:160], frame.iloc[160:]
    train[order + [f"Misconception{x}Id" for x in "ABCD"]].to_csv(public / "train.csv", index=False)
    test[order].to_csv(public / "test.csv", index=False)
    answers = pd.DataFrame(labels)
    answers.to_csv(private / "test_labels.csv", index=False)
    sample = " ".join(str(i) for i in range(25))
    answers[["QuestionId_Answer"]].assign(MisconceptionId=sample).to_csv(
        public / "sample_submission.csv", index=False
    )


WRITERS = {
    "text/easy": text_normalization,
    "text/medium": chatbot_arena,
    "text/hard": misconceptions,
}
GOLDS = {
    "text/easy": _answers_gold(["id", "after"]),
    "text/medium": _answers_gold(["id", *OUTCOMES]),
    "text/hard": _answers_gold(["QuestionId_Answer", "MisconceptionId"]),
}
