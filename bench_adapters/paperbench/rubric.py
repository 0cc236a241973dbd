"""PaperBench rubric trees: load, walk, count, and the two variants upstream defines.

A rubric is a tree of requirements. Every node has an ``id``, its ``requirements`` text, a
``weight`` (a number >= 0, relative to its siblings) and ``sub_tasks``; only leaves carry a
``task_category`` ("Code Development", "Code Execution", "Result Analysis") and, in
``rubric.json``, a ``finegrained_task_category`` (one of seven labels).

    root = load_rubric(paper_dir / "rubric.json")   # or a graded tree: it is its own rubric
    counts(root)                                     # {"Code Development": 126, ...}
    code_dev(root)                                   # Code Development leaves only
    resources_provided(root)                         # weight 0 for dataset/model acquisition

Leaf ids are not unique in every real rubric (bbox and bridging-data-gaps repeat a few), so code
that grades a tree works on leaf positions (``leaves()`` order) and uses ids only for display
and for flat ``{leaf_id: grade}`` maps.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bench_adapters.errors import TaskNotPrepared

CODE_DEVELOPMENT = "Code Development"
CODE_EXECUTION = "Code Execution"
RESULT_ANALYSIS = "Result Analysis"
TASK_CATEGORIES = (CODE_DEVELOPMENT, CODE_EXECUTION, RESULT_ANALYSIS)
DATASET_AND_MODEL_ACQUISITION = "Dataset and Model Acquisition"
FINEGRAINED_CATEGORIES = (
    "Environment & Infrastructure Setup",
    DATASET_AND_MODEL_ACQUISITION,
    "Data Processing & Preparation",
    "Method Implementation",
    "Experimental Setup",
    "Evaluation, Metrics & Benchmarking",
    "Logging, Analysis & Presentation",
)


class RubricError(TaskNotPrepared):
    """A rubric file is missing or malformed; the one-line message names the file."""


@dataclass(frozen=True)
class RubricNode:
    id: str
    requirements: str
    weight: float
    sub_tasks: tuple[RubricNode, ...] = ()
    task_category: str | None = None
    finegrained_task_category: str | None = None

    def is_leaf(self) -> bool:
        return not self.sub_tasks

    def walk(self) -> Iterator[RubricNode]:
        """Every node, depth first, parents before children."""
        yield self
        for child in self.sub_tasks:
            yield from child.walk()

    def leaves(self) -> list[RubricNode]:
        """The leaves in depth-first order: the order every grading of this tree uses."""
        return [node for node in self.walk() if node.is_leaf()]


def parse_rubric(data: Any, source: str = "rubric") -> RubricNode:
    """A tree from its JSON data (``rubric.json`` or a graded tree); errors name ``source``."""

    def node(d: Any, path: str) -> RubricNode:
        if not isinstance(d, dict):
            raise RubricError(f"{source}: {path} is not a JSON object")
        where = f"node {d.get('id', path)!r}"
        for key, kind in (("id", str), ("requirements", str), ("sub_tasks", list)):
            if key not in d:
                raise RubricError(f"{source}: {where} has no {key!r}")
            if not isinstance(d[key], kind):
                raise RubricError(f"{source}: {where}: {key!r} is not a {kind.__name__}")
        weight = d.get("weight")
        if isinstance(weight, bool) or not isinstance(weight, int | float) or weight < 0:
            raise RubricError(f"{source}: {where}: weight must be a number >= 0, got {weight!r}")
        children = tuple(node(c, f"{path}.{i}") for i, c in enumerate(d["sub_tasks"]))
        category = d.get("task_category")
        if not children and category not in TASK_CATEGORIES:
            raise RubricError(
                f"{source}: leaf {d['id']!r} has task_category {category!r}, "
                f"not one of {', '.join(TASK_CATEGORIES)}"
            )
        return RubricNode(
            id=d["id"],
            requirements=d["requirements"],
            weight=weight,
            sub_tasks=children,
            task_category=category if not children else None,
            finegrained_task_category=d.get("finegrained_task_category") if not children else None,
        )

    return node(data, "root")


def load_rubric(path: Path) -> RubricNode:
    """Read ``rubric.json`` (or a graded tree used as its own rubric); ``RubricError`` if unusable."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RubricError(f"rubric not found: {path}") from None
    except OSError as exc:
        raise RubricError(f"cannot read rubric {path}: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RubricError(f"{path}: not JSON ({exc.msg}, line {exc.lineno})") from None
    return parse_rubric(data, str(path))


def counts(root: RubricNode, field: str = "task_category") -> dict[str, int]:
    """Leaves per category (``field``: ``task_category`` or ``finegrained_task_category``)."""
    return dict(Counter(getattr(leaf, field) or "(none)" for leaf in root.leaves()))


def prune(root: RubricNode, keep: Callable[[RubricNode], bool]) -> RubricNode | None:
    """The tree with only the leaves ``keep`` accepts; parents left without children are dropped
    (None when nothing is left)."""
    if root.is_leaf():
        return root if keep(root) else None
    kept = tuple(c for c in (prune(child, keep) for child in root.sub_tasks) if c is not None)
    return replace(root, sub_tasks=kept) if kept else None


def is_code_dev(leaf: RubricNode) -> bool:
    return leaf.task_category == CODE_DEVELOPMENT


def code_dev(root: RubricNode) -> RubricNode | None:
    """PaperBench Code-Dev: only Code Development leaves count. The kept leaves are exactly
    ``[leaf for leaf in root.leaves() if is_code_dev(leaf)]``, in that order."""
    return prune(root, is_code_dev)


def resources_provided(root: RubricNode) -> RubricNode:
    """Datasets and models were given to the agent: their acquisition leaves weigh 0."""
    if root.is_leaf():
        zero = root.finegrained_task_category == DATASET_AND_MODEL_ACQUISITION
        return replace(root, weight=0) if zero else root
    return replace(root, sub_tasks=tuple(resources_provided(c) for c in root.sub_tasks))


def variant(root: RubricNode, *, code_dev_only: bool, resources: bool) -> RubricNode:
    """The rubric a grading uses under the two options; a Code-Dev rubric with no Code
    Development leaf is a ``RubricError``."""
    tree = resources_provided(root) if resources else root
    if not code_dev_only:
        return tree
    pruned = code_dev(tree)
    if pruned is None:
        raise RubricError(f"rubric {root.id!r} has no Code Development leaf to grade")
    return pruned
