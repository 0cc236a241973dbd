"""The journal: every node of the solution tree, appended to ``journal.jsonl`` as it completes.

The file holds a header line (``format_version``, the metric's direction) and then one line per
node. Version 2 added ``second_parent_id`` (a crossover's other parent); version 1 files load
and continue as they are, their nodes having no second parent. Nothing is ever rewritten: a killed run loses at most the node it was working on, and a
step costs one appended line however long the run. Views (children, debug depth, drafts, buggy
leaves, best node) are derived from the nodes, never stored.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Literal

from aide_tree.metric import Metric
from scaffolds.record import JsonlLog

FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)
"""Journal formats this code loads: 1 (before crossover) and 2."""
Operator = Literal["draft", "improve", "debug", "crossover"]


class JournalError(Exception):
    """The journal file cannot be continued (newer format, other task direction)."""


@dataclass(frozen=True)
class Node:
    """One attempt: the code an operator wrote, what running it did, and its review."""

    id: int
    """Position in the journal, from 0."""
    parent_id: int | None
    step: int
    """The run's step that made this node, from 1."""
    operator: Operator
    plan: str
    code: str
    second_parent_id: int | None = None
    """The other parent of a crossover node (``parent_id`` is the first); None otherwise."""
    output: str = ""
    """Execution output, capped in the middle (``output_cap``)."""
    exit_code: int | None = None
    """0 ok, 1 exception, None when the code did not finish (timed out, kernel died, not run)."""
    timed_out: bool = False
    duration_s: float = 0.0
    exception: str | None = None
    """The exception's type name (``"KeyError"``, ``"KernelDied"``), if the code raised one."""
    review: str = ""
    """The feedback model's summary (or why the node could not be run or reviewed)."""
    metric: float | None = None
    """The validation score the review reported; compare through ``Journal.metric``."""
    is_buggy: bool = True
    submission: str | None = None
    """The submission file the code wrote, relative to the workspace; None if it wrote none."""
    submission_valid: bool = False
    validation: str = ""
    """The task validator's message about the submission."""
    usage: dict[str, Any] = field(default_factory=dict)
    """Tokens and cost of this node's model calls (operator, format retry, review)."""
    model_calls: int = 0
    """Responses taken from the main model (a resumed replay skips this many)."""
    feedback_calls: int = 0
    """Responses taken from a separate feedback model, when there is one."""

    def to_record(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Node:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in record.items() if k in names})


class Journal:
    """The nodes in the order they were made, with the tree's views computed from them."""

    def __init__(self, lower_is_better: bool):
        self.lower_is_better = lower_is_better
        self.nodes: list[Node] = []
        self._children: dict[int, list[Node]] = {}  # an in-memory index, rebuilt on load
        self._best: Node | None = None
        self._scanned = 0
        self._log: JsonlLog | None = None

    @classmethod
    def open(cls, path: Path, lower_is_better: bool) -> Journal:
        """The journal at ``path``, created with its header if new, else loaded to continue."""
        journal = cls(lower_is_better)
        log = JsonlLog(path)
        records = list(log.read())
        if not records:
            log.append({"format_version": FORMAT_VERSION, "lower_is_better": lower_is_better})
        else:
            header, *rest = records
            version = header.get("format_version")
            if version not in READABLE_VERSIONS:
                expected = " or ".join(map(str, READABLE_VERSIONS))
                raise JournalError(f"{path}: format_version {version}, expected {expected}")
            if header.get("lower_is_better") != lower_is_better:
                raise JournalError(f"{path} was written for a metric of the other direction")
            for record in rest:
                journal.add(Node.from_record(record))
        journal._log = log
        return journal

    def add(self, node: Node) -> None:
        """Add a node in memory only (``append`` also writes it)."""
        if node.id != len(self.nodes):
            raise JournalError(f"node id {node.id} out of order (expected {len(self.nodes)})")
        self.nodes.append(node)
        if node.parent_id is not None:
            self._children.setdefault(node.parent_id, []).append(node)

    def append(self, node: Node) -> None:
        """Add a completed node and append it to the file."""
        self.add(node)
        if self._log is not None:
            self._log.append(node.to_record())

    def __len__(self) -> int:
        return len(self.nodes)

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes)

    def __getitem__(self, node_id: int) -> Node:
        return self.nodes[node_id]

    # views

    def parent(self, node: Node) -> Node | None:
        return None if node.parent_id is None else self.nodes[node.parent_id]

    def children(self, node: Node) -> list[Node]:
        return list(self._children.get(node.id, ()))

    def is_leaf(self, node: Node) -> bool:
        return node.id not in self._children

    def debug_depth(self, node: Node) -> int:
        """How many debug steps in a row led to this node (0 for drafts and improvements)."""
        depth = 0
        while node.operator == "debug":
            depth += 1
            parent = self.parent(node)
            if parent is None:
                break
            node = parent
        return depth

    def metric(self, node: Node | None) -> Metric | None:
        """The node's score, comparable by ``better``; None for buggy nodes."""
        if node is None or node.is_buggy or node.metric is None:
            return None
        return Metric(node.metric, self.lower_is_better)

    @property
    def drafts(self) -> list[Node]:
        return [n for n in self.nodes if n.parent_id is None]

    @property
    def good_nodes(self) -> list[Node]:
        return [n for n in self.nodes if not n.is_buggy]

    @property
    def buggy_nodes(self) -> list[Node]:
        return [n for n in self.nodes if n.is_buggy]

    def best(self) -> Node | None:
        """The best non-buggy node (the first one, on ties). Nodes are never changed, so the
        fold continues from where it last stopped."""
        for node in self.nodes[self._scanned :]:
            metric = self.metric(node)
            if metric is not None and metric.better(self.metric(self._best)):
                self._best = node
        self._scanned = len(self.nodes)
        return self._best
