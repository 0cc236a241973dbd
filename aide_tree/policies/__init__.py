"""AIDE's search policies, interchangeable over the same operators, journal and budget.

``--policy`` picks one: ``greedy`` (AIDE's), ``mcts`` (UCT over the tree) or ``evolutionary``
(a population bred by improvement and crossover). Each is a pure function
``policy(journal, settings, rng) -> Decision`` in a module of its own.
"""

from aide_tree.policies.base import Decision, Policy, can_debug, values
from aide_tree.policies.evolutionary import evolutionary, population
from aide_tree.policies.greedy import greedy
from aide_tree.policies.mcts import mcts

POLICIES: dict[str, Policy] = {"greedy": greedy, "mcts": mcts, "evolutionary": evolutionary}
"""``--policy`` name -> policy."""

__all__ = [
    "POLICIES",
    "Decision",
    "Policy",
    "can_debug",
    "evolutionary",
    "greedy",
    "mcts",
    "population",
    "values",
]
