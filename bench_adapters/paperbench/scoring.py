"""Scoring a rubric tree: leaf grades in, a graded tree and its summary out.

The rule (PaperBench): a leaf scores its grade, 0 or 1; a parent scores the weighted mean of its
children, Σ wᵢ sᵢ / Σ wᵢ, or 0 when their weights sum to 0. A parent's ``valid_score`` holds only
if every child's does. The root's score is the paper's replication score.

The graded tree has the shape of upstream's ``expected_result.json``: every node carries
``score``, ``valid_score`` and ``explanation`` next to its rubric fields.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bench_adapters.paperbench.rubric import CODE_DEVELOPMENT, TASK_CATEGORIES, RubricNode

AGGREGATED = "Aggregated score from sub-tasks."
GradedNode = dict[str, Any]


@dataclass(frozen=True)
class LeafGrade:
    score: float
    valid_score: bool = True
    explanation: str = ""
    judge_metadata: dict[str, Any] | None = None


NOT_GRADED = LeafGrade(0.0, False, "No grade was given for this leaf.")


def weighted_score(children: Sequence[tuple[float, float]]) -> float:
    """Σ wᵢ sᵢ / Σ wᵢ over ``(weight, score)`` pairs; 0 when the weights sum to 0."""
    total = sum(weight for weight, _ in children)
    if total == 0:
        return 0.0
    return sum(score * weight for weight, score in children) / total


def graded_tree(root: RubricNode, grades: Sequence[LeafGrade]) -> GradedNode:
    """The rubric with every node scored; ``grades`` are in ``root.leaves()`` order."""
    pending = iter(grades)

    def grade(node: RubricNode) -> GradedNode:
        if node.is_leaf():
            g = next(pending, NOT_GRADED)
            return _node(node, g.score, g.valid_score, g.explanation, g.judge_metadata, [])
        children = [grade(child) for child in node.sub_tasks]
        score = weighted_score([(c["weight"], c["score"]) for c in children])
        valid = all(c["valid_score"] for c in children)
        return _node(node, score, valid, AGGREGATED, None, children)

    return grade(root)


def _node(
    node: RubricNode,
    score: float,
    valid: bool,
    explanation: str,
    metadata: dict[str, Any] | None,
    children: list[GradedNode],
) -> GradedNode:
    return {
        "id": node.id,
        "requirements": node.requirements,
        "weight": node.weight,
        "score": score,
        "valid_score": valid,
        "task_category": node.task_category,
        "finegrained_task_category": node.finegrained_task_category,
        "explanation": explanation,
        "judge_metadata": metadata,
        "sub_tasks": children,
    }


def subtree_score(node: GradedNode, keep: Callable[[GradedNode], bool]) -> float | None:
    """The score ``node`` would get counting only the leaves ``keep`` accepts (parents left with
    none dropped), or None when it has none: the Code-Dev score is this with Code Development."""
    if not node["sub_tasks"]:
        return float(node["score"]) if keep(node) else None
    kept = [
        (c["weight"], s) for c in node["sub_tasks"] if (s := subtree_score(c, keep)) is not None
    ]
    return weighted_score(kept) if kept else None


def graded_leaves(node: GradedNode) -> list[GradedNode]:
    if not node["sub_tasks"]:
        return [node]
    return [leaf for child in node["sub_tasks"] for leaf in graded_leaves(child)]


def summarize(tree: GradedNode) -> dict[str, Any]:
    """Root score, Code-Dev score and the breakdowns by task and fine-grained category."""
    leaves = graded_leaves(tree)
    finegrained = sorted(
        {str(f) for leaf in leaves if (f := leaf.get("finegrained_task_category"))}
    )
    return {
        "score": tree["score"],
        "code_dev_score": subtree_score(tree, _where("task_category", CODE_DEVELOPMENT)),
        "leaves": _tally(tree, lambda n: True),
        "breakdown": {
            "task_category": {
                category: _tally(tree, _where("task_category", category))
                for category in TASK_CATEGORIES
                if any(leaf["task_category"] == category for leaf in leaves)
            },
            "finegrained_task_category": {
                label: _tally(tree, _where("finegrained_task_category", label))
                for label in finegrained
            },
        },
    }


def _where(key: str, value: str) -> Callable[[GradedNode], bool]:
    return lambda node: node.get(key) == value


def _tally(tree: GradedNode, keep: Callable[[GradedNode], bool]) -> dict[str, Any]:
    leaves = [leaf for leaf in graded_leaves(tree) if keep(leaf)]
    return {
        "score": subtree_score(tree, keep),
        "leaves": len(leaves),
        "passed": sum(1 for leaf in leaves if leaf["score"] >= 1),
        "invalid": sum(1 for leaf in leaves if not leaf["valid_score"]),
    }


def grades_from_tree(data: GradedNode) -> list[LeafGrade]:
    """The leaf grades of a graded tree (``expected_result.json``), in depth-first order."""
    return [
        LeafGrade(
            float(leaf.get("score") or 0.0),
            bool(leaf.get("valid_score", True)),
            str(leaf.get("explanation") or ""),
            leaf.get("judge_metadata"),
        )
        for leaf in graded_leaves(data)
    ]
