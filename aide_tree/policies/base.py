"""What every search policy shares: the decision it returns, its signature, and the views of
the journal the policies read (which buggy nodes AIDE may debug, each node's value, and what
the nodes in flight are working from)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from aide_tree.journal import Journal, Node, Operator


@dataclass(frozen=True)
class Decision:
    """The next step: apply ``operator`` to ``parent`` (None for a draft)."""

    operator: Operator
    parent: Node | None
    second_parent: Node | None = None
    """The other parent of a crossover."""


class Policy(Protocol):
    """A search policy: a pure function of the journal, the decisions still in flight (made,
    not yet in the journal; none when one node is made at a time) and the generator's state, so
    that replaying it over a journal's nodes brings a resumed run to the same decisions. With
    nothing in flight each draws from ``rng`` exactly as it did before nodes ran in parallel."""

    def __call__(
        self,
        journal: Journal,
        settings: Any,
        rng: random.Random,
        in_flight: Sequence[Decision] = (),
    ) -> Decision: ...


def drafting(in_flight: Sequence[Decision]) -> int:
    """Drafts in flight: they count toward ``num_drafts``."""
    return sum(d.parent is None for d in in_flight)


def busy(in_flight: Sequence[Decision]) -> Counter[int]:
    """How many steps in flight work from each node (as their first parent)."""
    return Counter(d.parent.id for d in in_flight if d.parent is not None)


def can_debug(journal: Journal, node: Node, max_debug_depth: int) -> bool:
    """AIDE's rule: a buggy leaf whose chain of debug steps is shorter than the maximum."""
    return node.is_buggy and journal.is_leaf(node) and journal.debug_depth(node) < max_debug_depth


def values(journal: Journal) -> list[float]:
    """Each node's metric scaled across the journal's working nodes, by node id: 1 for the best,
    0 for the worst (1 for all when they tie), and 0 for buggy nodes."""
    metrics = [journal.metric(node) for node in journal]
    known = [m.value for m in metrics if m is not None]
    if not known:
        return [0.0] * len(metrics)
    low, high = min(known), max(known)
    span = high - low
    scaled = []
    for metric in metrics:
        if metric is None:
            scaled.append(0.0)
        elif span == 0:
            scaled.append(1.0)
        else:
            up = (metric.value - low) / span
            scaled.append(1.0 - up if journal.lower_is_better else up)
    return scaled
