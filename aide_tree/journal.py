"""The journal: every node of the solution tree, appended to ``journal.jsonl`` as it completes.

The file holds a header line (``format_version``, the metric's direction) and then one line per
node. Version 2 added ``second_parent_id`` (a crossover's other parent); version 1 files load
and continue as they are, their nodes having no second parent. Version 3 (written by a search
with several nodes in flight, ``aide_tree.parallel``) keys nodes by id, not position: lines come
in the order nodes complete, each with its ``started_at`` and ``ended_at``. One node at a time
still writes version 2, where a node's id is its position. Nothing is ever rewritten: a killed
run loses at most the nodes it was working on, and a step costs one appended line however long
the run. Views (children, debug depth, drafts, buggy leaves, best node) are derived from the
nodes, never stored.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Literal

from aide_tree.metric import Metric
from scaffolds.record import JsonlLog

FORMAT_VERSION = 2
"""The format of a search that makes one node at a time: a node's id is its position."""
KEYED_VERSION = 3
"""The format of a search with nodes in flight: nodes keyed by id, in completion order."""
READABLE_VERSIONS = (1, 2, 3)
"""Journal formats this code loads: 1 (before crossover), 2 and 3."""
TIMING = ("started_at", "ended_at")
"""Node fields that depend on when it ran (wall-clock seconds), kept only when set."""
Operator = Literal["draft", "improve", "debug", "crossover"]


class JournalError(Exception):
    """The journal file cannot be continued (newer format, other task direction)."""


@dataclass(frozen=True)
class Node:
    """One attempt: the code an operator wrote, what running it did, and its review."""

    id: int
    """The node's number, from 0, in the order the search decided to make them (in a version 2
    journal also its position)."""
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
    started_at: float | None = None
    """When its work began (Unix time; version 3 journals only)."""
    ended_at: float | None = None
    """When it completed (Unix time; version 3 journals only)."""

    def to_record(self) -> dict[str, Any]:
        record = asdict(self)
        for name in TIMING:
            if record[name] is None:
                del record[name]
        return record

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Node:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in record.items() if k in names})


class Journal:
    """The nodes in the order they completed, keyed by id, with the tree's views computed from
    them. ``keyed=False`` (versions 1 and 2) insists that ids are positions."""

    def __init__(self, lower_is_better: bool, keyed: bool = False):
        self.lower_is_better = lower_is_better
        self.keyed = keyed
        self.nodes: list[Node] = []
        self._by_id: dict[int, Node] = {}
        self._children: dict[int, list[Node]] = {}  # an in-memory index, rebuilt on load
        self._best: Node | None = None
        self._scanned = 0
        self._log: JsonlLog | None = None

    @classmethod
    def open(cls, path: Path, lower_is_better: bool, new_version: int = FORMAT_VERSION) -> Journal:
        """The journal at ``path``, created with its header (format ``new_version``) if new,
        else loaded to continue in the format it has."""
        log = JsonlLog(path)
        records = list(log.read())
        journal = cls(lower_is_better, keyed=new_version == KEYED_VERSION)
        if not records:
            log.append({"format_version": new_version, "lower_is_better": lower_is_better})
        else:
            header, *rest = records
            version = header.get("format_version")
            if version not in READABLE_VERSIONS:
                expected = " or ".join(map(str, READABLE_VERSIONS))
                raise JournalError(f"{path}: format_version {version}, expected {expected}")
            if header.get("lower_is_better") != lower_is_better:
                raise JournalError(f"{path} was written for a metric of the other direction")
            journal.keyed = version == KEYED_VERSION
            for record in rest:
                journal.add(Node.from_record(record))
        journal._log = log
        return journal

    def add(self, node: Node) -> None:
        """Add a node in memory only (``append`` also writes it)."""
        if self.keyed:
            if node.id in self._by_id or node.id < 0:
                raise JournalError(f"node id {node.id} is already in the journal")
        elif node.id != len(self.nodes):
            raise JournalError(f"node id {node.id} out of order (expected {len(self.nodes)})")
        self.nodes.append(node)
        self._by_id[node.id] = node
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
        return self._by_id[node_id]

    def __contains__(self, node_id: object) -> bool:
        return node_id in self._by_id

    @property
    def version(self) -> int:
        return KEYED_VERSION if self.keyed else FORMAT_VERSION

    # views

    def parent(self, node: Node) -> Node | None:
        return None if node.parent_id is None else self._by_id[node.parent_id]

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
        """The best non-buggy node (the lowest id, on ties, whatever order they completed in).
        Nodes are never changed, so the fold continues from where it last stopped."""
        for node in self.nodes[self._scanned :]:
            metric, current = self.metric(node), self._best
            if metric is None:
                continue
            best = self.metric(current)
            if current is None or best is None:
                self._best = node
            elif metric.better(best) or (not best.better(metric) and node.id < current.id):
                self._best = node  # better, or as good and decided earlier
        self._scanned = len(self.nodes)
        return self._best
