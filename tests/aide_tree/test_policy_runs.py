"""Whole replayed runs of each search policy: each solves the demo task, and a run killed with
SIGKILL resumes to the decisions the seeded policy makes over the same journal from scratch."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from aide_tree import POLICIES, AideConfig, Journal, Node
from aide_tree.cassette import operator_reply, review_call, write_cassette

REPO = Path(__file__).resolve().parents[2]
SAMPLE = 'import shutil\nshutil.copy("data/sample_submission.csv", "submission/submission.csv")\n'
BROKEN = 'import csv\nprint(next(csv.DictReader(open("data/train.csv")))["nope"])\n'
SOLUTION = """\
import pandas as pd
from sklearn.linear_model import LogisticRegression

train = pd.read_csv("data/train.csv")
test = pd.read_csv("data/test.csv")
model = LogisticRegression(max_iter=1000).fit(train.drop(columns=["id", "target"]), train["target"])
proba = model.predict_proba(test.drop(columns=["id"]))[:, 1]
pd.DataFrame({"id": test["id"], "target": proba}).to_csv("submission/submission.csv", index=False)
print("validation ROC-AUC: 0.99")
"""
STEPS = [  # (code, is_bug, metric), answered in this order whatever the operator
    (BROKEN, True, None),
    (BROKEN, True, None),
    (SAMPLE + 'print("auc 0.6")\n', False, 0.6),
    ("import time\ntime.sleep(2.5)\n" + SOLUTION, False, 0.99),  # killed here
    (SAMPLE + 'print("auc 0.55")\n', False, 0.55),
    (BROKEN, True, None),
]
POLICY_FLAGS = {
    "greedy": [],
    "mcts": ["--max-children", "2", "--exploration", "0.3"],
    "evolutionary": ["--population-size", "3", "--crossover-prob", "0.6"],
}
SEED = 4
"""A seed under which every policy drafts, debugs and improves, and evolutionary crosses over."""


def cassette(path: Path) -> Path:
    records = []
    for i, (code, is_bug, metric) in enumerate(STEPS):
        records += [operator_reply(f"Attempt {i}.", code), review_call(is_bug, f"R{i}.", metric)]
    return write_cassette(path, records)


def flags(policy: str) -> list[str]:
    return [
        *("--task", "demo/tabular-binary", "--steps", str(len(STEPS)), "--seed", str(SEED)),
        *("--num-drafts", "2", "--debug-prob", "0.5", "--policy", policy),
        *POLICY_FLAGS[policy],
    ]


def nodes(run_dir: Path) -> list[Node]:
    lines = (run_dir / "journal.jsonl").read_text().splitlines()[1:]
    return [Node.from_record(json.loads(line)) for line in lines]


def decisions_from_scratch(config: dict[str, Any], journal: list[Node]) -> list[tuple[Any, ...]]:
    """What the seeded policy decides over the journal's prefixes, as an uninterrupted run
    would: the replay answers in a fixed order, so the outcomes do not depend on the kill."""
    settings, policy = AideConfig.model_validate(config), config["policy"]
    rng, prefix, out = random.Random(SEED), Journal(lower_is_better=False), []
    for node in journal:
        d = POLICIES[policy](prefix, settings, rng)
        second = None if d.second_parent is None else d.second_parent.id
        out.append((d.operator, None if d.parent is None else d.parent.id, second))
        prefix.add(node)
    return out


@dataclass
class Killed:
    run_dir: Path
    killed: list[Node]
    """The journal's nodes at the kill."""
    resumed: subprocess.CompletedProcess[str]


def start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "scaffolds.aide", *args],
        cwd=REPO,
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture(scope="module")
def runs(runs_root: Path) -> dict[str, Killed]:
    """A run of each policy, all three at once: each SIGKILLed while its node 3 runs (node 2's
    decision drew from the rng), then all resumed."""
    folder = Path(tempfile.mkdtemp(dir=runs_root))
    os.chmod(folder, 0o711)
    replay = cassette(folder / "cassette.jsonl")
    dirs = {p: folder / p for p in POLICIES}
    procs = {
        p: start("--model", f"replay:{replay}", "--out", str(dirs[p]), *flags(p)) for p in dirs
    }
    seen: dict[str, float] = {}  # when each journal first showed 3 nodes
    killed: dict[str, list[Node]] = {}
    deadline = time.monotonic() + 180
    while len(killed) < len(procs) and time.monotonic() < deadline:
        for policy, proc in procs.items():
            journal = dirs[policy] / "journal.jsonl"
            if policy in killed:
                continue
            assert proc.poll() is None, proc.communicate()[1]
            if (
                policy not in seen
                and journal.is_file()
                and len(journal.read_text().splitlines()) >= 4
            ):
                seen[policy] = time.monotonic()
            if policy in seen and time.monotonic() - seen[policy] > 0.5:  # node 3 sleeps 2.5 s
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                killed[policy] = nodes(dirs[policy])
        time.sleep(0.05)
    assert len(killed) == len(procs), "the runs did not reach node 3 in time"
    again = {p: start("--resume", str(dirs[p])) for p in dirs}  # all at once again
    done = {}
    for p, proc in again.items():
        out, err = proc.communicate(timeout=300)
        done[p] = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    return {p: Killed(dirs[p], killed[p], done[p]) for p in dirs}


@pytest.mark.slow
@pytest.mark.parametrize("policy", list(POLICIES))
def test_a_killed_run_of_each_policy_resumes_and_solves_the_demo_task(
    policy: str, runs: dict[str, Killed]
) -> None:
    run = runs[policy]
    assert len(run.killed) == 3
    assert run.resumed.returncode == 0, run.resumed.stderr
    assert "status=step_limit" in run.resumed.stdout
    summary = json.loads((run.run_dir / "run.json").read_text())
    assert summary["config"]["policy"] == policy

    final = nodes(run.run_dir)
    assert final[:3] == run.killed  # kept, not rerun
    assert [n.plan for n in final] == [f"Attempt {i}." for i in range(len(STEPS))]
    made = [(n.operator, n.parent_id, n.second_parent_id) for n in final]
    assert made == decisions_from_scratch(summary["config"], final)
    operators = {op for op, *_ in made}
    assert {"draft", "debug", "improve"} <= operators
    if policy == "evolutionary":
        assert "crossover" in operators
    assert summary["best_node"] == 3 and final[3].submission_valid
    assert summary["grade"]["any_medal"], summary["grade"]
    assert f'"policy": "{policy}"' in (run.run_dir / "tree.html").read_text()


def test_a_crossover_step_shows_the_model_both_parents(run_aide: Callable[..., Any]) -> None:
    first, second = SAMPLE + 'print("first")\n', SAMPLE + 'print("second")\n'
    _, grade, script, run_dir = run_aide(
        [
            operator_reply("Copy the sample.", first),
            review_call(False, "Works.", 0.5),
            operator_reply("Copy it, printing more.", second),
            review_call(False, "Works better.", 0.6),
            operator_reply("Take both.", SAMPLE),
            review_call(False, "Works.", 0.55),
        ],
        steps=3,
        num_drafts=2,
        debug_prob=0.0,
        policy="evolutionary",
        crossover_prob=1.0,
    )
    crossing = nodes(run_dir)[2]
    assert crossing.operator == "crossover" and not crossing.is_buggy
    assert {crossing.parent_id, crossing.second_parent_id} == {0, 1}
    prompt = script.prompts[4][-1]["content"]  # the operator prompt of step 3
    assert "combine two working solutions" in prompt
    assert first.strip() in prompt and second.strip() in prompt
    assert "Plan: Copy the sample." in prompt and "validation metric 0.6" in prompt
    assert grade["valid_submission"]
