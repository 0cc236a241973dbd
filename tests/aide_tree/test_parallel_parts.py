"""The parts of the parallel search that are pure functions: the policies with nodes in flight,
each node's share of the machine, the journal keyed by node id (format 3), and its timeline in
tree.html (drawn by headless Chromium)."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

from aide_tree import POLICIES, AideConfig, Decision, Journal, Node, write_tree
from aide_tree.journal import FORMAT_VERSION, KEYED_VERSION, JournalError
from aide_tree.resources import Share, describe, kernel_env, shares


def settings(**kw: object) -> AideConfig:
    return AideConfig(model="m", task="t", **kw)  # type: ignore[arg-type]


def node(i: int, parent: int | None, metric: float | None, operator: str = "") -> Node:
    operator = operator or ("draft" if parent is None else "improve")
    return Node(
        id=i,
        parent_id=parent,
        step=i + 1,
        operator=operator,  # type: ignore[arg-type]
        plan=f"plan {i}",
        code=f"print({i})\n",
        is_buggy=metric is None,
        metric=metric,
    )


def tree(*metrics: float | None) -> Journal:
    """Drafts with these metrics (None: buggy)."""
    j = Journal(lower_is_better=False)
    for i, metric in enumerate(metrics):
        j.add(node(i, None, metric))
    return j


def fill(policy: str, j: Journal, width: int, seed: int = 0, **kw: object) -> list[Decision]:
    """``width`` decisions in a row, each seeing the ones before it as in flight."""
    cfg, rng = settings(policy=policy, **kw), random.Random(seed)
    made: list[Decision] = []
    for _ in range(width):
        made.append(POLICIES[policy](j, cfg, rng, made[:]))
    return made


def parents(decisions: list[Decision]) -> list[int | None]:
    return [None if d.parent is None else d.parent.id for d in decisions]


@pytest.mark.parametrize("policy", ["greedy", "mcts", "evolutionary"])
def test_with_nothing_in_flight_each_policy_decides_and_draws_as_before(policy: str) -> None:
    j = tree(0.3, None, 0.9, 0.5)
    cfg = settings(policy=policy, num_drafts=4, debug_prob=0.5)
    a, b = random.Random(7), random.Random(7)
    for _ in range(20):
        assert POLICIES[policy](j, cfg, a) == POLICIES[policy](j, cfg, b, [])
    assert a.random() == b.random()


@pytest.mark.parametrize("policy", ["greedy", "mcts", "evolutionary"])
def test_drafts_in_flight_count_toward_num_drafts(policy: str) -> None:
    j = tree(0.5)
    made = fill(policy, j, 4, num_drafts=3, debug_prob=0.0)
    assert [d.operator for d in made[:2]] == ["draft", "draft"]
    assert all(d.operator != "draft" for d in made[2:])  # 1 done + 2 in flight = 3


def test_greedy_spreads_improvements_over_the_working_nodes() -> None:
    j = tree(0.3, 0.9, 0.5, None)
    made = fill("greedy", j, 3, num_drafts=4, debug_prob=0.0)
    assert parents(made) == [1, 2, 0]  # best first, then the next best free ones
    assert parents(fill("greedy", j, 5, num_drafts=4, debug_prob=0.0))[3:] == [1, 1]  # all taken


def test_greedy_never_debugs_a_leaf_already_being_debugged() -> None:
    j = tree(None, 0.5)
    made = fill("greedy", j, 3, num_drafts=2, debug_prob=1.0)
    assert [(d.operator, parents([d])[0]) for d in made] == [
        ("debug", 0),
        ("improve", 1),
        ("improve", 1),
    ]


def test_mcts_virtual_loss_spreads_the_walks_in_flight() -> None:
    j = tree(0.9, 0.85, 0.8, 0.2)
    one_at_a_time = [
        parents([POLICIES["mcts"](j, settings(num_drafts=4, exploration=0.1), random.Random(s))])[0]
        for s in range(4)
    ]
    assert set(one_at_a_time) == {0}  # alone, every walk takes the best draft
    made = fill("mcts", j, 4, num_drafts=4, exploration=0.5, max_children=3)
    assert len(set(parents(made))) >= 3, parents(made)
    assert Counter(parents(made))[0] <= 2


def test_mcts_counts_children_in_flight_toward_max_children() -> None:
    j = tree(0.9)
    made = fill("mcts", j, 3, num_drafts=1, max_children=2)
    assert [d.operator for d in made] == ["improve", "improve", "draft"]  # node 0 is full


def test_evolutionary_does_not_send_every_node_in_flight_to_one_parent() -> None:
    j = tree(0.1, 0.2, 0.3, 0.4, 1.0)
    for seed in range(50):
        made = fill("evolutionary", j, 4, seed, num_drafts=5, debug_prob=0.0, crossover_prob=0.0)
        assert len(set(parents(made))) == 4, parents(made)  # four different first parents
    alone = Counter(  # one at a time, tournaments of 3 out of 5 often pick the same parent
        parents(
            [POLICIES["evolutionary"](j, settings(num_drafts=5, debug_prob=0.0), random.Random(s))]
        )[0]
        for s in range(50)
    )
    assert alone[4] > 20


# --- each node's share of the machine ---------------------------------------------------------


def test_each_node_gets_its_own_gpus_when_there_are_enough() -> None:
    four = shares(4, 16, ["0", "1", "2", "3"])
    assert [s.gpus for s in four] == [("0",), ("1",), ("2",), ("3",)]
    assert {s.threads for s in four} == {4} and not any(s.shared for s in four)
    two = shares(2, 16, [str(i) for i in range(8)])
    assert [s.gpus for s in two] == [("0", "1", "2", "3"), ("4", "5", "6", "7")]
    assert [s.gpus for s in shares(2, 16, ["4", "6", "7"])] == [("4",), ("6",)]


def test_nodes_share_a_gpu_when_there_are_fewer_and_say_so() -> None:
    one = shares(3, 8, ["0"])
    assert [s.gpus for s in one] == [("0",)] * 3 and all(s.shared for s in one)
    assert "share GPU 0" in describe(one)
    mixed = shares(3, 8, ["0", "1"])
    assert [s.gpus for s in mixed] == [("0",), ("1",), ("0",)] and mixed[0].shared


def test_overrides_and_a_machine_without_gpus() -> None:
    assert shares(2, 16, ["0", "1", "2", "3"], node_cpus=3, node_gpus=2) == [
        Share(3, ("0", "1"), False),
        Share(3, ("2", "3"), False),
    ]
    none = shares(8, 2, [])
    assert none == [Share(1, (), False)] * 8 and "no GPU" in describe(none)
    env = kernel_env(Share(2, ("1",), False), sees_gpus=True)
    assert env["OMP_NUM_THREADS"] == "2" and env["CUDA_VISIBLE_DEVICES"] == "1"
    assert "CUDA_VISIBLE_DEVICES" not in kernel_env(Share(2, (), False), sees_gpus=False)


# --- the journal keyed by node id -------------------------------------------------------------


def test_a_keyed_journal_takes_nodes_in_completion_order_and_reloads(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    j = Journal.open(path, lower_is_better=False, new_version=KEYED_VERSION)
    for n in (node(1, None, 0.7), node(0, None, 0.5), node(3, 1, 0.7), node(2, 0, None, "debug")):
        j.append(n)
    assert [n.id for n in j] == [1, 0, 3, 2] and j[2].parent_id == 0
    assert j.best() is j[1]  # 1 and 3 tie: the lower id wins, whatever completed first
    with pytest.raises(JournalError, match="already"):
        j.append(node(1, None, 0.1))
    header = json.loads(path.read_text().splitlines()[0])
    assert header == {"format_version": KEYED_VERSION, "lower_is_better": False}
    again = Journal.open(path, lower_is_better=False)  # its own version, whatever the default
    assert again.keyed and list(again) == list(j) and again.best() == j[1]


def test_best_breaks_ties_by_id_in_either_order() -> None:
    for order in ([0, 1], [1, 0]):
        j = Journal(lower_is_better=True, keyed=True)
        for i in order:
            j.add(node(i, None, 0.25))
        assert j.best() is j[0]


def test_timing_fields_appear_only_when_set() -> None:
    plain = node(0, None, 0.5).to_record()
    assert "started_at" not in plain and "ended_at" not in plain
    timed = Node(**{**plain, "started_at": 1.0, "ended_at": 2.5})
    assert Node.from_record(timed.to_record()) == timed
    assert FORMAT_VERSION == 2  # one node at a time still writes version 2, no timing fields


def test_resuming_a_journal_of_the_other_kind_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    Journal.open(path, lower_is_better=False).append(node(0, None, 0.5))
    assert not Journal.open(path, lower_is_better=False, new_version=KEYED_VERSION).keyed


def test_tree_html_draws_a_timeline_of_the_nodes_in_flight(tmp_path: Path) -> None:
    j = Journal(lower_is_better=False, keyed=True)
    spans = {1: (0.0, 2.0), 0: (0.0, 3.0), 2: (1.0, 4.0), 3: (2.5, 6.0)}
    for i, (start, end) in spans.items():
        n = node(i, None if i < 2 else 0, None if i == 2 else 0.5)
        j.add(Node(**{**n.to_record(), "started_at": 1e9 + start, "ended_at": 1e9 + end}))
    page = tmp_path / "tree.html"
    write_tree(j, "demo/tabular-binary", page, "greedy")
    argv = [shutil.which("chromium") or "chromium", "--headless", "--no-sandbox", "--disable-gpu"]
    argv += [f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri()]
    dom = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert 'data-bars="4"' in dom.stdout and "4 nodes over 6 s" in dom.stdout
    bars = re.findall(
        r'class="tl-bar( buggy)?" title="[^"]*" style="left: ([\d.]+)%; width: ([\d.]+)%',
        dom.stdout,
    )
    assert [(b != "", round(float(left)), round(float(w))) for b, left, w in bars] == [
        (False, 0, 50),  # node 0, by id
        (False, 0, 33),
        (True, 17, 50),
        (False, 42, 58),
    ]


def test_a_node_folder_swapped_for_a_link_is_never_followed(tmp_path: Path) -> None:
    """The agent can rename ``nodes/`` and plant ``nodes/1`` as a link: the harness (root)
    then reads no submission through it, and makes no ``data`` link inside its target."""
    from aide_tree.parallel import ParallelAide
    from aide_tree.submissions import Submissions

    workspace, elsewhere, run_dir = tmp_path / "ws", tmp_path / "elsewhere", tmp_path / "run"
    (elsewhere / "submission").mkdir(parents=True)
    (elsewhere / "submission" / "submission.csv").write_text("id,y\n1,0\n")
    (workspace / "nodes").mkdir(parents=True)
    (workspace / "nodes" / "1").symlink_to(elsewhere)
    run_dir.mkdir()
    lane = Submissions(workspace, "submission/submission.csv", lambda _: (True, "ok"), run_dir,
                       None, inside=("nodes", "1"))  # fmt: skip
    assert not lane.collect(0).valid

    search = ParallelAide.__new__(ParallelAide)  # lane_folder reads only these of the run
    search.run = SimpleNamespace(  # type: ignore[assignment]
        workspace=SimpleNamespace(root=workspace), sandbox=SimpleNamespace(isolated=False)
    )
    with pytest.raises(OSError):
        search.lane_folder(1)
    assert not (elsewhere / "data").exists() and not (elsewhere / "data").is_symlink()

    (workspace / "nodes" / "1").unlink()
    shutil.copytree(elsewhere, workspace / "nodes" / "1")
    assert lane.collect(1).valid  # the same folder, not a link, is taken
