"""AIDE's search policy: which operator to apply next, and to which node.

Jiang et al., "AIDE: AI-Driven Exploration in the Space of Code" (2025): draft a few
independent solutions, then mostly improve the best one, and with some probability go back to
fix a buggy leaf whose chain of fixes is not yet too long.
"""

from __future__ import annotations

import random
from typing import Protocol

from aide_tree.journal import Journal
from aide_tree.policies.base import Decision, can_debug


class GreedySettings(Protocol):
    num_drafts: int
    debug_prob: float
    max_debug_depth: int


def greedy(journal: Journal, settings: GreedySettings, rng: random.Random) -> Decision:
    """The next step. Deterministic given the journal and the state of ``rng``."""
    if len(journal.drafts) < settings.num_drafts:
        return Decision("draft", None)

    if rng.random() < settings.debug_prob:
        debuggable = [
            node
            for node in journal.buggy_nodes
            if can_debug(journal, node, settings.max_debug_depth)
        ]
        if debuggable:
            return Decision("debug", rng.choice(debuggable))

    best = journal.best()
    if best is None:  # nothing works yet and nothing is left to fix: start afresh
        return Decision("draft", None)
    return Decision("improve", best)
