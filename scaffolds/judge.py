"""Judges: ask a model bounded questions, in parallel, and parse each answer into a typed verdict.

PaperBench's rubric judge, TAM-Bench's constraint judge and the run monitors' log reviewer are
all clients of this one mechanism; each owns only its prompts (in ``prompts/``) and aggregation.

    judge = Judge(make_model(ModelConfig(model="o3-mini")), log=Path("judge.jsonl"), workers=16)
    answers = judge.ask_all([Question("leaf-1", messages)], Score)

The rules:
- **Forced tool call.** The verdict's pydantic model is the parameters of one tool the model is
  made to call, and only a call of that tool is a verdict: a text reply (even one holding the
  verdict's fields as JSON, which a submission quoted in the prompt could have dictated) or a
  call of another tool is an invalid answer (``valid=False`` with the reason), asked again up
  to ``attempts`` times, and never an exception. A model error is an invalid answer too, marked
  ``model_error`` so that a client can tell an outage from a judgement.
- **Bounded concurrency.** At most ``workers`` questions are in flight. A replay model answers in
  cassette order, so with one the questions are asked one at a time, in the order given.
- **Judge log.** Every answer is appended to ``log`` as it arrives. A valid answer whose prompt
  (model, messages and verdict schema) is in the log is answered from it at no cost: a killed
  grading resumes where it stopped and a repeated prompt is free.
- **Cost cap.** A question is sent only when what is left of ``max_cost_usd``, less what the
  requests in flight may cost, pays for it at the model's listed prices with its reply at the
  output cap (a model with no listed price: until the spend reaches the cap); the others come
  back invalid, saying so. So the spend never passes the cap where prices are known.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from scaffolds.context import approx_tokens
from scaffolds.messages import ModelError, ModelResponse, Usage
from scaffolds.protocols import Message, Model, PricedModel
from scaffolds.record import JsonlLog, dumps
from scaffolds.session import COST_ESTIMATE_MARGIN

V = TypeVar("V", bound=BaseModel)

LOG_FORMAT_VERSION = 1
RAW_KEEP = 2000
"""Characters of a raw reply kept in the log and the answer."""


@dataclass(frozen=True)
class Question:
    """One bounded question: ``key`` names it in reports (a leaf id, a constraint number)."""

    key: str
    messages: list[Message]


@dataclass
class Answer(Generic[V]):
    key: str
    verdict: V | None
    valid: bool
    error: str | None = None
    usage: Usage = field(default_factory=Usage)
    cached: bool = False
    """Answered from the judge log, at no cost."""
    raw: str = ""
    """The model's reply as it came (cut to ``RAW_KEEP`` characters)."""
    prompt_hash: str = ""
    model_error: bool = False
    """No verdict because the model failed (an outage, not a judgement of the work)."""


def verdict_tool(verdict: type[BaseModel], name: str) -> dict[str, Any]:
    """The OpenAI tool schema whose arguments are the verdict."""
    schema = verdict.model_json_schema()
    schema.pop("title", None)
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": (verdict.__doc__ or "Give your verdict.").strip(),
            "parameters": schema,
        },
    }


def prompt_hash(model: str, messages: Sequence[Message], tool: dict[str, Any]) -> str:
    blob = json.dumps([model, list(messages), tool], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def parse_verdict(
    response: ModelResponse, verdict: type[V], tool_name: str
) -> tuple[V | None, str, str | None]:
    """(verdict or None, the raw text it came from, the reason it is invalid): the arguments of
    the reply's first call of ``tool_name``, and nothing else."""
    candidates = [tc.arguments for tc in response.tool_calls if tc.name == tool_name]
    if not candidates:
        raw = response.content or "".join(tc.arguments for tc in response.tool_calls)
        return None, raw, f"the reply holds no call of {tool_name} (a text reply is no verdict)"
    try:
        return verdict.model_validate_json(candidates[0]), candidates[0], None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "verdict"
        return None, candidates[0], f"malformed verdict ({where}: {first['msg']})"


class Judge:
    """Asks ``model`` questions whose answers are verdicts of one pydantic type."""

    def __init__(
        self,
        model: Model,
        log: Path | None = None,
        workers: int = 8,
        attempts: int = 2,
        max_cost_usd: float | None = None,
        tool_name: str = "submit_verdict",
    ):
        from scaffolds.replay import replays

        self.model = model
        self.workers = 1 if replays(model) else max(1, workers)
        self.attempts = max(1, attempts)
        self.max_cost_usd = max_cost_usd
        self.tool_name = tool_name
        self.usage = Usage()
        """What this judge's model calls cost in all (answers from the log cost nothing)."""
        self.calls = 0
        self._reserved = 0.0
        """Cost set aside for requests in flight (``_reserve``)."""
        self._lock = threading.Lock()
        self._log = JsonlLog(log) if log is not None else None
        self._known: dict[str, dict[str, Any]] = {}
        if self._log is not None:
            for line in self._log.read():
                if line.get("valid"):
                    self._known[line["prompt_hash"]] = line

    @property
    def spent_usd(self) -> float:
        return self.usage.cost_usd or 0.0

    def over_budget(self) -> bool:
        return self.max_cost_usd is not None and self.spent_usd >= self.max_cost_usd

    def _cost_bound(self, messages: Sequence[Message], tool: dict[str, Any]) -> float | None:
        """The most one question can cost at the model's listed prices (None: unknown)."""
        if self.max_cost_usd is None or not isinstance(self.model, PricedModel):
            return None
        tokens = sum(approx_tokens(m) for m in messages)
        tokens += approx_tokens({"content": json.dumps(tool)})
        return self.model.cost_bound(int(tokens * COST_ESTIMATE_MARGIN))

    def _reserve(self, bound: float | None) -> str | None:
        """Set ``bound`` aside from the cost limit for a request about to be sent, so that the
        requests in flight can never spend past it; the reason when it cannot be."""
        with self._lock:
            cap = self.max_cost_usd
            if cap is not None and self.spent_usd >= cap:
                return f"not asked: the judge's cost limit of ${cap:g} was reached"
            if (
                cap is not None
                and bound is not None
                and self.spent_usd + self._reserved + bound > cap
            ):
                return (
                    f"not asked: the request could cost up to ${bound:.4f}, more than the "
                    f"judge's cost limit of ${cap:g} leaves"
                )
            self._reserved += bound or 0.0
            return None

    def ask_all(
        self,
        questions: Sequence[Question],
        verdict: type[V],
        on_answer: Callable[[Answer[V]], None] | None = None,
    ) -> list[Answer[V]]:
        """Answers in the order of ``questions``; ``on_answer`` sees each as it arrives."""
        tool = verdict_tool(verdict, self.tool_name)

        def one(question: Question) -> Answer[V]:
            answer = self.ask(question, verdict, tool)
            if on_answer is not None:
                on_answer(answer)
            return answer

        if self.workers == 1 or len(questions) <= 1:
            return [one(q) for q in questions]
        with ThreadPoolExecutor(self.workers, thread_name_prefix="judge") as pool:
            return list(pool.map(one, questions))

    def ask(
        self, question: Question, verdict: type[V], tool: dict[str, Any] | None = None
    ) -> Answer[V]:
        tool = tool or verdict_tool(verdict, self.tool_name)
        digest = prompt_hash(self.model.name, question.messages, tool)
        known = self._known.get(digest)
        if known is not None:
            return Answer(
                question.key,
                verdict.model_validate(known["verdict"]),
                True,
                cached=True,
                raw=known.get("raw", ""),
                prompt_hash=digest,
            )
        answer: Answer[V] = Answer(question.key, None, False, prompt_hash=digest)
        bound = self._cost_bound(question.messages, tool)
        for _ in range(self.attempts):
            refused = self._reserve(bound)
            if refused:
                answer.error = refused
                break
            try:
                response = self.model.complete(
                    question.messages,
                    [tool],
                    {"type": "function", "function": {"name": self.tool_name}},
                )
            except ModelError as exc:
                answer.error, answer.model_error = f"model error: {exc}", True
                break
            finally:
                with self._lock:
                    self._reserved -= bound or 0.0
            with self._lock:
                self.usage = self.usage + response.usage
                self.calls += 1
            answer.usage = answer.usage + response.usage
            parsed, raw, reason = parse_verdict(response, verdict, self.tool_name)
            answer.raw, answer.error = raw[:RAW_KEEP], reason
            if parsed is not None:
                answer.verdict, answer.valid = parsed, True
                break
        self._append(answer)
        return answer

    def _append(self, answer: Answer[Any]) -> None:
        line = {
            "format_version": LOG_FORMAT_VERSION,
            "key": answer.key,
            "prompt_hash": answer.prompt_hash,
            "model": self.model.name,
            "valid": answer.valid,
            "verdict": answer.verdict.model_dump(mode="json") if answer.verdict else None,
            "error": answer.error,
            "usage": answer.usage.to_dict(),
            "raw": answer.raw,
        }
        with self._lock:
            if self._log is not None:
                self._log.append(json.loads(dumps(line)))
            if answer.valid:
                self._known[answer.prompt_hash] = line
