"""Deterministic models: replay of recorded responses, recording, and a scripted policy for tests.

A cassette is JSON lines, one assistant message per line in the OpenAI chat shape::

    {"role": "assistant", "content": "...", "tool_calls": [{"id": "c1", "type": "function",
     "function": {"name": "python", "arguments": "{\\"code\\": \\"print(1)\\"}"}}], "usage": {...}}

``usage`` is optional in hand-written cassettes.

A keyed cassette gives each line ``"node"`` and ``"call"``: the search node that asks
(``scaffolds.record.for_node``) and the index of its call to this model, from 0. Such a file is
answered by key, not in order, so a node gets the same reply whichever node asks first (AIDE
with ``--parallel-nodes``); recording a search that names its nodes writes one.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scaffolds.messages import CallLimits, ModelError, ModelExhausted, ModelResponse
from scaffolds.protocols import KnowsContextWindow, Message, Model, ResumableModel
from scaffolds.record import current_node


def load_cassette(path: Path) -> list[dict[str, Any]]:
    """Read a cassette; a malformed line is a clear error naming the file and line."""
    if not path.is_file():
        raise ModelError(f"replay file not found: {path}")
    records = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ModelError(f"{path}:{lineno}: not JSON ({exc.msg})") from exc
        if not isinstance(record, dict) or ("content" not in record and "tool_calls" not in record):
            raise ModelError(
                f"{path}:{lineno}: expected an assistant message with content or tool_calls"
            )
        records.append(record)
    return records


def keyed(records: list[dict[str, Any]]) -> dict[tuple[int, int], dict[str, Any]] | None:
    """A keyed cassette's responses by (node, call index); None for a cassette in order."""
    if not any("node" in r for r in records):
        return None
    by_key = {}
    for r in records:
        if not isinstance(r.get("node"), int) or not isinstance(r.get("call"), int):
            raise ModelError(f"a keyed cassette needs integer node and call on every line: {r}")
        by_key[(r["node"], r["call"])] = r
    return by_key


class ReplayModel:
    """Returns a cassette's responses in order (or, keyed, by node and call), with no network."""

    def __init__(self, path: Path, start: int = 0):
        self.path = path
        self.name = f"replay:{path}"
        self._records = load_cassette(path)
        self._keyed = keyed(self._records)
        self._served: Counter[int] = Counter()  # keyed: calls answered for each node
        self._lock = threading.Lock()
        self.position = start
        """Index of the next response."""

    @property
    def is_keyed(self) -> bool:
        return self._keyed is not None

    def resume_at(self, responses: int) -> None:
        """``ResumableModel``: a resumed run continues after the responses it already used
        (a keyed cassette needs no skipping: a node's calls are found by key)."""
        self.position = responses

    def _by_key(self) -> dict[str, Any]:
        assert self._keyed is not None
        node = current_node()
        if node is None:
            raise ModelError(f"{self.path} is keyed by node, but the caller names no node")
        with self._lock:
            call = self._served[node]
            self._served[node] += 1
        record = self._keyed.get((node, call))
        if record is None:
            raise ModelExhausted(
                f"replay file {self.path} has no response for node {node} call {call}"
            )
        return record

    def complete(
        self,
        messages: list[Message],
        tools: list[dict[str, Any]] | None = None,
        tool_choice: str | dict[str, Any] | None = None,
        limits: CallLimits | None = None,
    ) -> ModelResponse:
        if self._keyed is not None:
            return ModelResponse.from_record(self._by_key())
        if self.position >= len(self._records):
            raise ModelExhausted(
                f"replay file {self.path} has no response left after {len(self._records)}"
            )
        record = self._records[self.position]
        self.position += 1
        return ModelResponse.from_record(record)


class RecordingModel:
    """Wraps any model and appends each response to a cassette as it arrives."""

    def __init__(self, inner: Model, path: Path):
        self.inner = inner
        self.name = inner.name
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._made: Counter[int] = Counter()  # calls recorded for each node
        self._lock = threading.Lock()

    def __getattr__(self, item: str) -> Any:
        return getattr(self.inner, item)

    def resume_at(self, responses: int) -> None:
        """``ResumableModel`` when the inner model is (a replay); otherwise there is nothing
        to resume: a live model answers anew."""
        if isinstance(self.inner, ResumableModel):
            self.inner.resume_at(responses)

    def complete(
        self,
        messages: list[Message],
        tools: list[dict[str, Any]] | None = None,
        tool_choice: str | dict[str, Any] | None = None,
        limits: CallLimits | None = None,
    ) -> ModelResponse:
        response = self.inner.complete(messages, tools, tool_choice, limits=limits)
        record = response.to_record()
        node = current_node()
        with self._lock:
            if node is not None:  # keyed: replays the same at any number of parallel nodes
                record = {"node": node, "call": self._made[node], **record}
                self._made[node] += 1
            with self.path.open("a", encoding="utf-8") as f:
                f.write(json.dumps(record) + "\n")
        return response


Policy = Callable[
    [list[Message], list[dict[str, Any]] | None], ModelResponse | dict[str, Any] | None
]
"""Given the conversation and tools, the next response (a ModelResponse or a cassette-shaped
dict), or None when the script is over."""


def unwrapped(model: Model) -> Model:
    """The model that answers: ``model`` itself, or the one a ``RecordingModel`` wraps."""
    while isinstance(model, RecordingModel):
        model = model.inner
    return model


def known_window(model: Model) -> int | None:
    """The context window of the model that answers, when it knows one (``KnowsContextWindow``:
    a live model); None for a replay or a scripted model."""
    inner = unwrapped(model)
    return inner.context_window() if isinstance(inner, KnowsContextWindow) else None


def replays(model: Model) -> bool:
    """Whether ``model`` answers from a cassette (itself or under a ``RecordingModel``): its
    answers come in a fixed order, so it must be asked one question at a time."""
    return isinstance(unwrapped(model), ReplayModel)


class ScriptedModel:
    """A Python callable decides each response: the deterministic model tests drive scaffolds with."""

    def __init__(self, policy: Policy, name: str = "scripted"):
        self.policy = policy
        self.name = name
        self.calls = 0

    def complete(
        self,
        messages: list[Message],
        tools: list[dict[str, Any]] | None = None,
        tool_choice: str | dict[str, Any] | None = None,
        limits: CallLimits | None = None,
    ) -> ModelResponse:
        result = self.policy(messages, tools)
        if result is None:
            raise ModelExhausted(f"scripted model {self.name} ended after {self.calls} responses")
        self.calls += 1
        return result if isinstance(result, ModelResponse) else ModelResponse.from_record(result)
