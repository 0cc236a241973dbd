"""Two interchangeable ways to rank a leaf's candidate files when they do not all fit its prompt.

- ``LlmRanking``: the judge model names the most relevant files, most relevant first
  (upstream's way). One more question per leaf, with the paper in it; paths it invents are
  dropped, and an answer that names no listed file falls back to BM25.
- ``Bm25Ranking``: BM25 retrieval (``bm25s``) of the leaf's requirement over each file's path
  and text: no model call, deterministic, ties in path order.

Both turn ``RankRequest``s into ``Ranking``s, in order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from bench_adapters.paperbench.files import MAX_FILES
from bench_adapters.paperbench.judge_prompts import chars, render, tokens
from prompts.quoting import quote_attribute
from scaffolds.judge import Judge, Question
from scaffolds.messages import Usage
from scaffolds.protocols import Message
from tools.truncate import truncate_middle

INDEX_CHARS = 50_000
"""Characters of each file that BM25 indexes."""
_WORDS = re.compile(r"[_\W]+")


@dataclass(frozen=True)
class RankRequest:
    key: str
    requirement: str
    candidates: list[str]


@dataclass
class Ranking:
    paths: list[str]
    how: str
    """``llm``, ``bm25``, or ``bm25 (the LLM ranking failed: ...)``."""
    usage: Usage = field(default_factory=Usage)


class FileRanking(BaseModel):
    """Submit the files the grader should read, most relevant first."""

    files: list[str] = Field(description="Paths exactly as listed, most relevant first")


class Bm25Ranking:
    """One index per distinct candidate list (two per grading: code and docs; results and
    docs), built on first use."""

    def __init__(self, texts: dict[str, str]):
        self.texts = texts
        self._indexes: dict[tuple[str, ...], Any] = {}

    def rank(self, query: str, candidates: Sequence[str]) -> list[str]:
        if len(candidates) <= 1:
            return list(candidates)
        import bm25s

        index = self._indexes.get(tuple(candidates))
        if index is None:
            corpus = [_words(f"{p} {p} {self.texts[p][:INDEX_CHARS]}") for p in candidates]
            index = bm25s.BM25()
            index.index(
                bm25s.tokenize(corpus, stopwords="en", show_progress=False), show_progress=False
            )
            self._indexes[tuple(candidates)] = index
        terms = bm25s.tokenize(
            [_words(query)], stopwords="en", return_ids=False, show_progress=False
        )[0]
        if not terms:
            return list(candidates)
        scores = index.get_scores(terms)
        order = sorted(range(len(candidates)), key=lambda i: (-float(scores[i]), i))
        return [candidates[i] for i in order]

    def rank_all(self, requests: Sequence[RankRequest]) -> list[Ranking]:
        return [Ranking(self.rank(r.requirement, r.candidates), "bm25") for r in requests]


def _words(text: str) -> str:
    """Identifiers split into words: ``learning_rate`` matches "learning rate"."""
    return _WORDS.sub(" ", text)


class LlmRanking:
    """Asks ``judge`` for a ranking per leaf; the prompt is the paper, the criterion and the
    candidates with their sizes (the listing cut to the room ``window`` leaves)."""

    def __init__(self, judge: Judge, paper: Message, texts: dict[str, str], room_tokens: int):
        self.judge = judge
        self.paper = paper
        self.texts = texts
        self.room = room_tokens - tokens(paper["content"])
        self.system: Message = {
            "role": "system",
            "content": render("judge_rank_system", tool=judge.tool_name, max_files=MAX_FILES),
        }
        self.fallback = Bm25Ranking(texts)

    def rank_all(self, requests: Sequence[RankRequest]) -> list[Ranking]:
        questions = [Question(f"rank:{r.key}", self._messages(r)) for r in requests]
        rankings = []
        for request, answer in zip(
            requests, self.judge.ask_all(questions, FileRanking), strict=True
        ):
            listed = set(request.candidates)
            named = [_clean(p) for p in answer.verdict.files] if answer.verdict else []
            chosen = [p for p in dict.fromkeys(named) if p in listed]
            if chosen:
                rankings.append(Ranking(chosen, "llm", answer.usage))
                continue
            why = answer.error or "it named no listed file"
            paths = self.fallback.rank(request.requirement, request.candidates)
            rankings.append(Ranking(paths, f"bm25 (the LLM ranking failed: {why})", answer.usage))
        return rankings

    def _messages(self, request: RankRequest) -> list[Message]:
        listing = "\n".join(
            f"{quote_attribute(p)} ({len(self.texts[p])})" for p in request.candidates
        )
        files = render(
            "judge_rank_files",
            criterion=request.requirement,
            total=len(request.candidates),
            listing=truncate_middle(listing, chars(self.room - 600)),
        )
        return [self.system, self.paper, {"role": "user", "content": files}]


def _clean(path: str) -> str:
    return path.strip().strip("/").removeprefix("./")
