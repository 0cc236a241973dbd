"""tensorflow2-question-answering: "micro-F1" of answered-or-not against right-or-wrong, over a
long and a short answer per Natural Questions example.

A submission has ``example_id`` (``<id>_long`` and ``<id>_short`` for every example) and
``PredictionString``: ``<start_token>:<end_token>``, ``YES``, ``NO`` or blank. Each row gives
``y_pred`` = 1 when it answers (anything but blank) and ``y_true`` = 1 when its answer is one of
the example's valid ones (the first annotation's long answer span; its short answer spans and
its yes/no answer), or, for a blank, when a valid answer exists. The score is scikit-learn's
``f1_score(average="micro")`` of the two: with both labels counted it equals accuracy, so a
blank for an unanswerable question counts as right (a true negative), unlike Kaggle's F1.
Upstream's checks, kept: twice as many rows as examples, both columns, exactly the expected
ids, no repeats (``InvalidSubmissionError``), and each prediction well formed (a span whose
ends are not integers is an error; any other text an ``InvalidSubmissionError``). Cells are
read as text after blanks become ``""`` (``fillna``, then ``astype(str)``).

The answers, ``test.jsonl``, hold whole Natural Questions records (the document's text and
its candidate spans: 1-2 GB at real size), which upstream loads entirely. :func:`load_answers`
streams the file and keeps, per record, only its ``example_id`` and its first annotation's
valid answers (a record whose annotations cannot be read is kept as such, and fails the grade
as upstream's does). ``grade`` takes that frame, or upstream's list of records.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd
from sklearn.metrics import f1_score

from . import InvalidSubmissionError

ANSWERS = "test.jsonl"
SAMPLE_SUBMISSION = "public/sample_submission.csv"
GOLD_SUBMISSION = "gold_submission.csv"
ID, PREDICTION = "example_id", "PredictionString"
COLUMNS = ["example_id", "long", "short", "error"]

_DECODER = json.JSONDecoder()


def valid_answers(record: dict[str, Any]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """(long answers, short answers) of a record's first annotation, as upstream reads them."""
    annotation = record["annotations"][0]
    long: list[Any] = []
    if annotation["long_answer"]["start_token"] != -1:
        long.append(
            (
                int(annotation["long_answer"]["start_token"]),
                int(annotation["long_answer"]["end_token"]),
            )
        )
    short: list[Any] = [
        (int(s["start_token"]), int(s["end_token"])) for s in annotation["short_answers"]
    ]
    if annotation["yes_no_answer"] != "NONE":
        short.append(annotation["yes_no_answer"])
    return tuple(long), tuple(short)


def _value_after(line: str, key: str) -> Any:
    """The value of the last ``"key":`` in a compact JSON line, or KeyError. Inside a string a
    quote is escaped, so ``"key":`` can only be a key (the last one wins, as in ``json``)."""
    at = line.rfind(f'"{key}":')
    if at < 0:
        raise KeyError(key)
    value, _ = _DECODER.raw_decode(line, at + len(key) + 3)
    return value


def _row(record: Any) -> tuple[Any, Any, Any, str | None]:
    """(example_id, long, short, error) of one record."""
    example_id = record.get(ID) if isinstance(record, dict) else None
    try:
        if example_id is None:
            raise KeyError(ID)
        long, short = valid_answers(record)
    except Exception as e:  # upstream fails grading on this record: keep why
        return example_id, None, None, f"{type(e).__name__}: {e}"
    return example_id, long, short, None


def _essentials(line: str) -> Any:
    """The record of one line, reduced to its ``example_id`` and ``annotations`` where the line
    is compact JSON (as pandas and Kaggle write it), else the whole record."""
    try:
        return {ID: _value_after(line, ID), "annotations": _value_after(line, "annotations")}
    except (KeyError, ValueError):
        return json.loads(line)


def answers_frame(records: Iterable[Any]) -> pd.DataFrame:
    return pd.DataFrame([_row(r) for r in records], columns=COLUMNS, dtype=object)


def load_answers(path: Path) -> pd.DataFrame:
    """One row per record of ``test.jsonl``: its id and valid answers, read line by line."""
    with open(path, encoding="utf-8") as f:
        return answers_frame(_essentials(line) for line in f)


def as_frame(answers: pd.DataFrame | list[dict[str, Any]]) -> pd.DataFrame:
    return answers if isinstance(answers, pd.DataFrame) else answers_frame(answers)


def parse(prediction: str) -> Any:
    """A span ``(start, end)``, ``YES``, ``NO`` or ``""``."""
    if ":" in prediction and len(prediction.split(":")) == 2:
        start, end = prediction.split(":")
        return int(start), int(end)
    if prediction in ("YES", "NO", ""):
        return prediction
    raise InvalidSubmissionError(f"Invalid submission format: {prediction}")


def grade(submission: pd.DataFrame, answers: pd.DataFrame | list[dict[str, Any]]) -> float:
    answers = as_frame(answers)
    if len(submission) != 2 * len(answers):
        raise InvalidSubmissionError(
            f"Submission length {len(submission)} != 2 * answers length {len(answers)}"
        )
    text = {c: ["" if pd.isna(v) else str(v) for v in submission[c]] for c in submission.columns}
    expected = [f"{i}_{part}" for i in answers[ID] for part in ("long", "short")]
    if ID not in text or PREDICTION not in text:
        raise InvalidSubmissionError(
            "Submission requires 'example_id' and 'PredictionString' columns."
        )
    ids = text[ID]
    if set(ids) != set(expected):
        raise InvalidSubmissionError(
            "Submission example_ids do not match expected_ids. Please ensure you have a "
            "long and short answer for each example_id in the answers."
        )
    if len(set(ids)) != len(ids):
        raise InvalidSubmissionError(
            "Submission example_ids are not unique. Please ensure you have a "
            "long and short answer for each example_id in the answers."
        )
    failed = answers["error"].dropna()
    if len(failed):
        raise ValueError(f"answers record {failed.index[0]}: {failed.iloc[0]}")
    by_id = {
        i: (long, short)
        for i, long, short in answers[[ID, "long", "short"]].itertuples(index=False)
    }
    y_true, y_pred = [], []
    for sample_id, prediction in zip(ids, text[PREDICTION], strict=True):
        prediction = prediction.strip()
        y_pred.append(1 if prediction else 0)
        answer = parse(prediction)
        if sample_id.endswith("_long"):
            valid = by_id[sample_id.split("_long")[0]][0]
        elif sample_id.endswith("_short"):
            valid = by_id[sample_id.split("_short")[0]][1]
        else:
            raise InvalidSubmissionError(
                f"sample_id {sample_id} does not end with '_long' or '_short'"
            )
        y_true.append(int(answer in valid) if answer else int(bool(valid)))
    return f1_score(y_true=y_true, y_pred=y_pred, average="micro")
