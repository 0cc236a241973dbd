"""The search policies on journals built in memory: determinism per seed, MCTS's expansion and
UCT choices, its debug chains and backups, and the evolutionary population and crossover."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from aide_tree import POLICIES, AideConfig, Decision, Journal, Node, mcts
from aide_tree.journal import FORMAT_VERSION
from aide_tree.policies import evolutionary, population, values


def settings(**kw: object) -> AideConfig:
    return AideConfig(model="m", task="t", **kw)  # type: ignore[arg-type]


def make(
    j: Journal,
    parent: int | None,
    metric: float | None,
    operator: str | None = None,
    second: int | None = None,
) -> Node:
    """The next node of ``j``: buggy when ``metric`` is None."""
    if operator is None:
        operator = "draft" if parent is None else ("debug" if j[parent].is_buggy else "improve")
    node = Node(
        id=len(j),
        parent_id=parent,
        second_parent_id=second,
        step=len(j) + 1,
        operator=operator,  # type: ignore[arg-type]
        plan=f"plan {len(j)}",
        code=f"print({len(j)})\n",
        is_buggy=metric is None,
        metric=metric,
    )
    return node


def add(j: Journal, *args: object) -> None:
    """Add the next node to ``j`` in memory (``make``'s arguments)."""
    j.add(make(j, *args))  # type: ignore[arg-type]


def simulate(
    name: str, cfg: AideConfig, seed: int, steps: int
) -> tuple[Journal, list[tuple[str, int | None, int | None]]]:
    """A run of the policy against a seeded world that makes 30% of the nodes buggy and gives
    the others a random metric: the journal and the decisions."""
    policy, journal = POLICIES[name], Journal(lower_is_better=False)
    rng, world = random.Random(seed), random.Random(10_000 + seed)
    trace = []
    for _ in range(steps):
        d = policy(journal, cfg, rng)
        ids = (
            None if d.parent is None else d.parent.id,
            None if d.second_parent is None else d.second_parent.id,
        )
        trace.append((d.operator, *ids))
        metric = None if world.random() < 0.3 else round(world.random(), 3)
        add(journal, ids[0], metric, d.operator, ids[1])
    return journal, trace


def ids(d: Decision) -> tuple[str, int | None]:
    return d.operator, None if d.parent is None else d.parent.id


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_each_policy_is_deterministic_for_a_seed(name: str) -> None:
    cfg = settings(num_drafts=3, max_children=2, crossover_prob=0.5, exploration=0.3)
    _, first = simulate(name, cfg, seed=1, steps=40)
    _, again = simulate(name, cfg, seed=1, steps=40)
    _, other = simulate(name, cfg, seed=2, steps=40)
    assert first == again
    assert first != other
    assert {"draft", "improve", "debug"} <= {op for op, *_ in first}


def test_values_scale_metrics_across_the_journal_by_direction() -> None:
    j = Journal(lower_is_better=True)
    for metric in (2.0, None, 4.0, 3.0):
        add(j, None, metric)
    assert values(j) == [1.0, 0.0, 0.0, 0.5]  # lower is better: 2.0 is the best
    single = Journal(lower_is_better=False)
    add(single, None, 7.0)
    assert values(single) == [1.0]


def test_mcts_expands_a_node_with_room_before_descending_past_it() -> None:
    cfg = settings(num_drafts=2, max_children=2, exploration=0.0)
    j, rng = Journal(lower_is_better=False), random.Random(0)
    assert ids(mcts(j, cfg, rng)) == ("draft", None)
    add(j, None, 0.5)
    add(j, None, 0.9)
    add(j, 1, 0.95)  # node 1's branch holds the best node
    assert ids(mcts(j, cfg, rng)) == ("improve", 1)  # room at node 1: not its child 2
    add(j, 1, 0.6)
    assert ids(mcts(j, cfg, rng)) == ("improve", 2)  # node 1 is full: UCT descends to 2


def test_mcts_picks_the_less_visited_child_before_revisiting() -> None:
    cfg = settings(num_drafts=2, max_children=1, exploration=0.5)
    j, rng = Journal(lower_is_better=False), random.Random(0)
    add(j, None, 0.7)
    add(j, None, 0.7)
    add(j, 1, 0.7)  # equal values everywhere; branch 1 has been visited twice, branch 0 once
    assert ids(mcts(j, cfg, rng)) == ("improve", 0)
    add(j, 0, 0.7)
    # both branches now visited twice: the tie is broken by the generator, both ways
    picks = {ids(mcts(j, cfg, random.Random(seed))) for seed in range(20)}
    assert picks == {("improve", 2), ("improve", 3)}


def test_mcts_debugs_in_chains_up_to_the_maximum_depth_then_drafts() -> None:
    cfg = settings(num_drafts=1, max_debug_depth=2)
    j, rng = Journal(lower_is_better=False), random.Random(0)
    add(j, None, None)
    assert ids(mcts(j, cfg, rng)) == ("debug", 0)
    add(j, 0, None)
    assert ids(mcts(j, cfg, rng)) == ("debug", 1)  # the chain goes on from the last fix
    add(j, 1, None)
    assert ids(mcts(j, cfg, rng)) == ("draft", None)  # depth 2: the branch is spent
    add(j, None, 0.4)
    assert ids(mcts(j, cfg, rng)) == ("improve", 3)


def test_mcts_backs_up_the_best_value_or_the_mean() -> None:
    j = Journal(lower_is_better=False)
    add(j, None, 0.5)  # 0: one great child among bugs
    add(j, None, 0.8)  # 1: steady
    add(j, 0, 1.0)
    add(j, 0, None, "improve")
    add(j, 0, None, "improve")
    add(j, 1, 0.8)
    rng = random.Random(0)
    best = settings(num_drafts=2, max_children=9, exploration=0.0, backup="max")
    mean = settings(num_drafts=2, max_children=9, exploration=0.0, backup="mean")
    assert ids(mcts(j, best, rng)) == ("improve", 0)  # max: branch 0 reached 1.0
    assert ids(mcts(j, mean, rng)) == ("improve", 1)  # mean: 0.25 against 0.6


@pytest.mark.parametrize("selection", ["tournament", "fitness"])
def test_evolutionary_keeps_its_population_size_and_uses_crossover(selection: str) -> None:
    size = 4
    cfg = settings(
        num_drafts=3, population_size=size, crossover_prob=0.5, selection=selection, debug_prob=0.3
    )
    journal, trace = simulate("evolutionary", cfg, seed=5, steps=80)
    prefix = Journal(lower_is_better=False)
    crossovers = 0
    for node, (operator, parent, second) in zip(journal, trace, strict=True):
        members = population(prefix, values(prefix), size)
        good = sorted(prefix.good_nodes, key=lambda n: (-(n.metric or 0.0), n.id))
        assert len(members) == min(size, len(good))
        assert members == good[:size]  # the best working nodes: a better one evicts the worst
        if operator in ("improve", "crossover"):
            assert prefix[parent] in members
        if operator == "crossover":
            crossovers += 1
            assert second is not None and second != parent and prefix[second] in members
            assert node.second_parent_id == second
        prefix.add(node)
    assert len(population(journal, values(journal), size)) == size
    assert 10 <= crossovers <= 40
    assert Counter(op for op, *_ in trace)["improve"] >= 10


def test_tournament_of_the_whole_population_always_picks_the_best() -> None:
    cfg = settings(num_drafts=3, population_size=3, tournament_size=3, crossover_prob=0.0)
    j, rng = Journal(lower_is_better=True), random.Random(0)
    for metric in (0.3, 0.1, 0.2):
        add(j, None, metric)
    assert {ids(evolutionary(j, cfg, rng)) for _ in range(20)} == {("improve", 1)}


def test_fitness_selection_favours_fitter_members() -> None:
    cfg = settings(num_drafts=3, population_size=3, selection="fitness", crossover_prob=0.0)
    j, rng = Journal(lower_is_better=False), random.Random(0)
    for metric in (0.0, 0.5, 1.0):
        add(j, None, metric)
    picks = Counter(ids(evolutionary(j, cfg, rng))[1] for _ in range(3000))
    assert picks[2] > picks[1] > picks[0] > 0  # weights 1.05 : 0.55 : 0.05


def test_crossover_nodes_round_trip_and_version_1_journals_still_load(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    old_node = {"id": 0, "parent_id": None, "step": 1, "operator": "draft", "plan": "p"}
    old_node |= {"code": "print(0)\n", "is_buggy": False, "metric": 0.5}
    header = {"format_version": 1, "lower_is_better": False}
    path.write_text(json.dumps(header) + "\n" + json.dumps(old_node) + "\n")
    j = Journal.open(path, lower_is_better=False)
    assert j[0].second_parent_id is None and j.best() is j[0]
    j.append(make(j, None, 0.6))
    crossing = make(j, 1, 0.7, "crossover", second=0)
    j.append(crossing)
    again = Journal.open(path, lower_is_better=False)
    assert again[2] == crossing and again[2].second_parent_id == 0
    assert json.loads(path.read_text().splitlines()[0]) == header  # never rewritten
    fresh = tmp_path / "new.jsonl"
    Journal.open(fresh, lower_is_better=False)
    assert json.loads(fresh.read_text())["format_version"] == FORMAT_VERSION == 2
