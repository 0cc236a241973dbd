"""Monte-Carlo tree search over the solution tree: UCT (Kocsis & Szepesvári, 2006), as in the
MCTS policies of AIRA-dojo (Toledo et al., 2025) and ML-Master.

The journal is the search tree, below a virtual root whose children are the drafts. Each step
walks down from the root and expands the first node that still has room for a child:

- the root takes drafts until there are ``num_drafts``;
- a working node takes improvements until it has ``max_children`` children;
- a buggy node takes one debug, while its chain of debug steps is shorter than
  ``max_debug_depth``: AIDE's debug chains, each fix made from the last failed one.

A node with no room is passed by stepping into the child of highest UCT score,
``value + exploration * sqrt(ln N(node) / N(child))``, among the children whose subtrees still
have room (ties broken by ``rng``); when no draft's subtree has any, a new draft is made.

A node's own value is its metric normalised across the journal (``base.values``: best 1,
worst 0, buggy 0). The value backed up to a node is the best own value in its subtree
(``backup="max"``: a branch is as good as the best solution it has led to), or their mean
(``backup="mean"``: classic UCT's average return, which also counts the bugs a branch made).
N(node) is the size of its subtree: every node made below it was one walk through it, so visit
counts, like every view, are derived from the journal, and a resumed run decides the same.

Steps in flight (several nodes at once) take virtual loss: each counts as a visit of value 0
to its parent and every node above it, and as a child toward its parent's room (drafts toward
``num_drafts``), so walks made while others are out spread over the tree instead of all
descending the same path.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Literal, Protocol

from aide_tree.journal import Journal, Node
from aide_tree.policies.base import Decision, busy, can_debug, drafting, values


class MctsSettings(Protocol):
    num_drafts: int
    max_debug_depth: int
    max_children: int
    exploration: float
    backup: Literal["max", "mean"]


def has_room(journal: Journal, node: Node, settings: MctsSettings, pending: int = 0) -> bool:
    """Room for one more child, ``pending`` children being made already."""
    if node.is_buggy:
        return pending == 0 and can_debug(journal, node, settings.max_debug_depth)
    return len(journal.children(node)) + pending < settings.max_children


def mcts(
    journal: Journal,
    settings: MctsSettings,
    rng: random.Random,
    in_flight: Sequence[Decision] = (),
) -> Decision:
    """The next step. Deterministic given the journal, the steps in flight and ``rng``'s state."""
    if len(journal.drafts) + drafting(in_flight) < settings.num_drafts:
        return Decision("draft", None)

    # back up from the leaves (a child's id is always above its parent's): subtree sizes
    # (with virtual visits for the steps in flight), best and summed values, and whether any
    # node of the subtree has room for a child
    own, pending = values(journal), busy(in_flight)
    visits, best, total = [1 + pending[n.id] for n in journal], own[:], own[:]
    room = [has_room(journal, node, settings, pending[node.id]) for node in journal]
    for node in reversed(journal.nodes):
        if node.parent_id is not None:
            p = node.parent_id
            visits[p] += visits[node.id]
            best[p] = max(best[p], best[node.id])
            total[p] += total[node.id]
            room[p] = room[p] or room[node.id]

    def uct(child: Node, parent_visits: int) -> float:
        value = best[child.id] if settings.backup == "max" else total[child.id] / visits[child.id]
        return value + settings.exploration * math.sqrt(math.log(parent_visits) / visits[child.id])

    children, parent_visits = journal.drafts, len(journal) + len(in_flight) + 1  # and the root
    while True:
        open_children = [c for c in children if room[c.id]]
        if not open_children:  # only at the root: every branch is spent
            return Decision("draft", None)
        scores = [uct(c, parent_visits) for c in open_children]
        top = max(scores)
        node = rng.choice([c for c, s in zip(open_children, scores, strict=True) if s == top])
        if has_room(journal, node, settings, pending[node.id]):
            return Decision("debug" if node.is_buggy else "improve", node)
        children, parent_visits = journal.children(node), visits[node.id]
