"""The three graph tasks (KDD Cup 2024 OAG-Challenge): JSON and TXT submissions, not CSV.

Choices where the spec and upstream TAM's ``grade.py`` disagree:
- graph/easy: the spec's polarity. A score is the likelihood that the paper was assigned to the
  author **incorrectly** (1 = outlier); upstream's grader labels normal papers 1, so it rewards
  the opposite ranking. Every (author, paper) of the test set needs a number.
- graph/medium: the spec's format, ``{paper_id: {serial: score}}``, one score in [0, 1] per
  reference serial of the paper (upstream wants a list aligned with its hidden answer list).
  Every test paper must be present: upstream averages over the papers submitted.
- graph/hard: as upstream and the spec, ``result.txt`` with one line per test question (in the
  order of the test file), each exactly 20 comma-separated paper ids, best first.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from bench_adapters.tam import metrics
from bench_adapters.tam.graders.common import Invalid, read_json

TOP_PAPERS = 20


def _score(value: Any, where: str, low: float = -math.inf, high: float = math.inf) -> float:
    """A finite number in [low, high]: JSON's ``NaN`` and ``Infinity`` are invalid."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Invalid(f"{where}: expected a number, got {json.dumps(value)[:40]}")
    if not math.isfinite(value) or not low <= value <= high:
        bounds = f" in [{low:g}, {high:g}]" if math.isfinite(low) else ""
        raise Invalid(f"{where}: {value} is not a finite number{bounds}")
    return float(value)


def _entries(data: Any, key: str, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise Invalid(f"the submission must be a JSON object of {what}")
    if key not in data:
        raise Invalid(f"{what[:-1]} {key!r} of the test set is missing from the submission")
    entry = data[key]
    if not isinstance(entry, dict):
        raise Invalid(f"{what[:-1]} {key!r}: expected an object, got {type(entry).__name__}")
    return entry


def incorrect_assignments(submission: Path, answers: Path) -> float:
    """graph/easy (IND): ``{author_id: {paper_id: score}}``, score high for a paper that does
    not belong to the author. Score: weighted AUC, each author weighted by its number of
    incorrect papers (answers: ``{author_id: {"normal_data": [...], "outliers": [...]}}``)."""
    data, truth = read_json(submission), read_json(answers)
    per_author = []
    for author, papers in truth.items():
        given = _entries(data, author, "authors")
        labels, scores = [], []
        for label, kind in ((0, "normal_data"), (1, "outliers")):
            for paper in papers[kind]:
                if paper not in given:
                    raise Invalid(f"author {author!r}: paper {paper!r} has no score")
                scores.append(_score(given[paper], f"author {author!r}, paper {paper!r}"))
                labels.append(label)
        per_author.append((labels, scores))
    return metrics.weighted_auc(per_author)


def source_papers(submission: Path, answers: Path) -> float:
    """graph/medium (PST): ``{paper_id: {serial: score}}``, score in [0, 1] for how much the
    reference inspired the paper. Score: mean over papers of the average precision of the
    scores against the source labels (answers: ``{paper_id: {serial: 0 or 1}}``); a paper
    without any source reference is left out."""
    data, truth = read_json(submission), read_json(answers)
    per_paper = []
    for paper, labels in truth.items():
        given = _entries(data, paper, "papers")
        scores = []
        for serial in labels:
            if serial not in given:
                raise Invalid(f"paper {paper!r}: reference {serial!r} has no score")
            scores.append(_score(given[serial], f"paper {paper!r}, reference {serial!r}", 0, 1))
        if any(labels.values()):
            per_paper.append((list(labels.values()), scores))
    if not per_paper:
        raise AssertionError("the answers hold no source reference")
    return metrics.mean_average_precision(per_paper)


def retrieved_papers(submission: Path, answers: Path) -> float:
    """graph/hard (AQA): ``result.txt``, line i holding the 20 paper ids retrieved for question
    i, comma-separated, best first. Score: MAP over the top 20, each question's AP divided by
    its hits in the top 20 (upstream's), over the questions whose ``flag`` is not 0 (answers:
    JSON lines ``{"pids": [...], "flag": 1}``). A repeated id counts where it first appears."""
    truth = [json.loads(line) for line in answers.read_text(encoding="utf-8").splitlines() if line]
    try:
        lines = submission.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        raise Invalid(f"{submission.name} is not a UTF-8 text file") from None
    while lines and not lines[-1].strip():
        lines.pop()
    if len(lines) != len(truth):
        raise Invalid(
            f"{submission.name} has {len(lines)} lines; expected {len(truth)}, one per question"
        )
    total, weight = 0.0, 0
    for number, (line, answer) in enumerate(zip(lines, truth, strict=True), start=1):
        pids = [p.strip() for p in line.strip().split(",")]
        if len(pids) != TOP_PAPERS or not all(pids):
            raise Invalid(
                f"line {number} holds {len(pids)} ids; expected {TOP_PAPERS} (comma-separated)"
            )
        flag = int(answer.get("flag", 1))
        total += flag * metrics.retrieval_ap(pids, set(answer["pids"]), TOP_PAPERS)
        weight += flag
    return total / weight


GRADERS = {
    "graph/easy": incorrect_assignments,
    "graph/medium": source_papers,
    "graph/hard": retrieved_papers,
}
