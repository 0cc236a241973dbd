"""AIDE's search policy: which operator to apply next, and to which node.

Jiang et al., "AIDE: AI-Driven Exploration in the Space of Code" (2025): draft a few
independent solutions, then mostly improve the best one, and with some probability go back to
fix a buggy leaf whose chain of fixes is not yet too long.

With several nodes in flight: drafts in flight count toward ``num_drafts``, a buggy leaf being
debugged is not debugged again, and an improvement goes to the best working node that no step
in flight already improves (the best itself when all are taken).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from aide_tree.journal import Journal
from aide_tree.policies.base import Decision, busy, can_debug, drafting, values


class GreedySettings(Protocol):
    num_drafts: int
    debug_prob: float
    max_debug_depth: int


def greedy(
    journal: Journal,
    settings: GreedySettings,
    rng: random.Random,
    in_flight: Sequence[Decision] = (),
) -> Decision:
    """The next step. Deterministic given the journal, the steps in flight and ``rng``'s state."""
    if len(journal.drafts) + drafting(in_flight) < settings.num_drafts:
        return Decision("draft", None)

    taken = busy(in_flight)
    if rng.random() < settings.debug_prob:
        debuggable = [
            node
            for node in journal.buggy_nodes
            if can_debug(journal, node, settings.max_debug_depth) and node.id not in taken
        ]
        if debuggable:
            return Decision("debug", rng.choice(debuggable))

    best = journal.best()
    if best is None:  # nothing works yet and nothing is left to fix: start afresh
        return Decision("draft", None)
    if best.id in taken:  # spread: the best working node no step in flight improves
        fitness = values(journal)
        free = [n for n in journal.good_nodes if n.id not in taken]
        if free:
            best = min(free, key=lambda n: (-fitness[n.id], n.id))
    return Decision("improve", best)
