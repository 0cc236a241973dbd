"""An evolutionary search over solutions, as in AIRA-dojo's evolutionary policy (Toledo et al.,
2025): a population of the best working solutions breeds the next ones.

- The first generation is ``num_drafts`` drafts. As in AIDE, with probability ``debug_prob`` a
  step fixes a buggy leaf whose debug chain is shorter than ``max_debug_depth``.
- The population is the ``population_size`` best working nodes (the earlier one on ties). It
  is steady-state: a new working node joins it when it beats the worst member, who leaves, so
  once that many nodes work the population keeps its size.
- Parents are chosen by ``selection``: ``tournament`` (the fittest of ``tournament_size``
  members drawn at random) or ``fitness`` (roulette: chance proportional to the member's value
  plus ``FITNESS_FLOOR``, so the worst member keeps a chance).
- With probability ``crossover_prob`` (and two members or more) two different parents are
  combined by the crossover operator; otherwise one parent is mutated by the improve operator.
- No working node yet, and nothing to fix: draft.

Fitness is a node's metric normalised across the journal (``base.values``: best 1, worst 0).

With several nodes in flight: drafts in flight count toward the first generation, a buggy leaf
being debugged is not debugged again, and the first parent is drawn from the members no step
in flight works from (from all members when every one is taken), so N steps at once are not
all bred from one parent.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal, Protocol

from aide_tree.journal import Journal, Node
from aide_tree.policies.base import Decision, busy, can_debug, drafting, values

FITNESS_FLOOR = 0.05
"""Added to every member's fitness in roulette selection."""


class EvolutionarySettings(Protocol):
    num_drafts: int
    debug_prob: float
    max_debug_depth: int
    population_size: int
    selection: Literal["tournament", "fitness"]
    tournament_size: int
    crossover_prob: float


def population(journal: Journal, fitness: list[float], size: int) -> list[Node]:
    """The ``size`` best working nodes by ``fitness``, best first (the earlier one on ties)."""
    ranked = sorted(journal.good_nodes, key=lambda n: (-fitness[n.id], n.id))
    return ranked[:size]


def select(
    members: list[Node], fitness: list[float], settings: EvolutionarySettings, rng: random.Random
) -> Node:
    if settings.selection == "tournament":
        entrants = rng.sample(members, min(settings.tournament_size, len(members)))
        return max(entrants, key=lambda n: (fitness[n.id], -n.id))
    weights = [fitness[n.id] + FITNESS_FLOOR for n in members]
    return rng.choices(members, weights=weights)[0]


def evolutionary(
    journal: Journal,
    settings: EvolutionarySettings,
    rng: random.Random,
    in_flight: Sequence[Decision] = (),
) -> Decision:
    """The next step. Deterministic given the journal, the steps in flight and ``rng``'s state."""
    if len(journal.drafts) + drafting(in_flight) < settings.num_drafts:
        return Decision("draft", None)

    taken = busy(in_flight)
    if rng.random() < settings.debug_prob:
        buggy = [
            n
            for n in journal.buggy_nodes
            if can_debug(journal, n, settings.max_debug_depth) and n.id not in taken
        ]
        if buggy:
            return Decision("debug", rng.choice(buggy))

    fitness = values(journal)
    members = population(journal, fitness, settings.population_size)
    if not members:
        return Decision("draft", None)
    free = [n for n in members if n.id not in taken] or members
    first = select(free, fitness, settings, rng)
    if len(members) >= 2 and rng.random() < settings.crossover_prob:
        second = select([n for n in members if n is not first], fitness, settings, rng)
        return Decision("crossover", first, second)
    return Decision("improve", first)
