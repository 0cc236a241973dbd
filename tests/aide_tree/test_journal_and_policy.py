"""The journal's views, the metric's direction, and the search policy, on real journal files."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from aide_tree import AideConfig, Journal, JournalError, Metric, Node, greedy
from aide_tree.journal import FORMAT_VERSION


def node(
    id: int, parent: int | None, operator: str, buggy: bool, metric: float | None = None
) -> Node:
    return Node(
        id=id,
        parent_id=parent,
        step=id + 1,
        operator=operator,
        plan=f"plan {id}",  # type: ignore[arg-type]
        code=f"print({id})\n",
        is_buggy=buggy,
        metric=metric,
    )


def settings(**kw: object) -> AideConfig:
    return AideConfig(model="m", task="t", **kw)  # type: ignore[arg-type]


def test_metric_compares_by_direction() -> None:
    assert Metric(0.9, lower_is_better=False).better(Metric(0.8, False))
    assert Metric(0.8, lower_is_better=True).better(Metric(0.9, True))
    assert not Metric(0.8, False).better(Metric(0.8, False))  # ties keep the earlier node
    assert Metric(-5, True).better(None)


def test_views_are_derived_from_the_nodes(tmp_path: Path) -> None:
    j = Journal.open(tmp_path / "journal.jsonl", lower_is_better=True)
    for n in [
        node(0, None, "draft", True),
        node(1, 0, "debug", True),
        node(2, 1, "debug", False, 3.0),
        node(3, None, "draft", False, 2.5),
        node(4, 3, "improve", False, 2.5),  # a tie: the earlier node stays best
        node(5, 2, "improve", True, 1.0),  # buggy: never best, whatever its metric
    ]:
        j.append(n)
    assert [n.id for n in j.drafts] == [0, 3]
    assert [c.id for c in j.children(j[3])] == [4]
    assert [j.debug_depth(n) for n in j] == [0, 1, 2, 0, 0, 0]
    assert [n.id for n in j.buggy_nodes if j.is_leaf(n)] == [5]
    assert j.best() is j[3]
    j.append(node(6, 3, "improve", False, 2.0))
    assert j.best() is j[6]

    lines = (tmp_path / "journal.jsonl").read_text().splitlines()
    assert json.loads(lines[0]) == {"format_version": FORMAT_VERSION, "lower_is_better": True}
    assert len(lines) == 8  # header + one appended line per node, never rewritten
    again = Journal.open(tmp_path / "journal.jsonl", lower_is_better=True)
    assert list(again) == list(j) and again.best() == j[6]


def test_a_torn_last_line_is_dropped_and_a_wrong_header_refused(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    j = Journal.open(path, lower_is_better=False)
    j.append(node(0, None, "draft", False, 0.5))
    with path.open("a") as f:
        f.write('{"id": 1, "parent_id": 0, "ope')  # killed mid-write
    assert len(Journal.open(path, lower_is_better=False)) == 1
    with pytest.raises(JournalError, match="other direction"):
        Journal.open(path, lower_is_better=True)
    path.write_text(json.dumps({"format_version": 99, "lower_is_better": False}) + "\n")
    with pytest.raises(JournalError, match="format_version 99"):
        Journal.open(path, lower_is_better=False)


def test_policy_drafts_first_then_improves_the_best() -> None:
    j, rng = Journal(lower_is_better=False), random.Random(0)
    cfg = settings(num_drafts=2, debug_prob=0.0)
    assert greedy(j, cfg, rng).operator == "draft"
    j.add(node(0, None, "draft", False, 0.7))
    j.add(node(1, None, "draft", False, 0.9))
    decision = greedy(j, cfg, rng)
    assert (decision.operator, decision.parent) == ("improve", j[1])


def test_policy_debugs_buggy_leaves_below_the_maximum_depth() -> None:
    cfg = settings(num_drafts=1, debug_prob=1.0, max_debug_depth=2)
    j, rng = Journal(lower_is_better=False), random.Random(0)
    j.add(node(0, None, "draft", True))
    assert (greedy(j, cfg, rng).operator, greedy(j, cfg, rng).parent) == (
        "debug",
        j[0],
    )
    j.add(node(1, 0, "debug", True))
    assert greedy(j, cfg, rng).parent == j[1]  # node 0 is no longer a leaf
    j.add(node(2, 1, "debug", True))  # depth 2: at the maximum, left alone
    decision = greedy(j, cfg, rng)
    assert (decision.operator, decision.parent) == ("draft", None)  # nothing works, nothing to fix


def test_policy_is_reproducible_with_a_seeded_generator() -> None:
    cfg = settings(num_drafts=2, debug_prob=0.5)
    j = Journal(lower_is_better=False)
    for i, buggy in enumerate([True, False, True, True]):
        j.add(node(i, None, "draft", buggy, None if buggy else 0.5))

    def choices(seed: int) -> list[tuple[str, int | None]]:
        rng = random.Random(seed)
        picks = [greedy(j, cfg, rng) for _ in range(30)]
        return [(d.operator, None if d.parent is None else d.parent.id) for d in picks]

    assert choices(7) == choices(7)
    assert {op for op, _ in choices(7)} == {"debug", "improve"}


def test_nodes_round_trip_through_their_records() -> None:
    n = replace(node(3, 1, "improve", False, 2), usage={"prompt_tokens": 5}, model_calls=2)
    assert Node.from_record(json.loads(json.dumps(n.to_record()))) == n
