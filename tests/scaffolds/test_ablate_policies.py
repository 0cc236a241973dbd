"""AIDE's search policy as a factor of a grid (``--policies``): the plan, the command lines, and
a real grid whose results, summary and runs show the policy."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from aide_tree import POLICIES
from scaffolds.grid.aggregate import summarize
from scaffolds.grid.command import scaffold_argv
from scaffolds.grid.config import AIDE_POLICIES, GridConfig
from scaffolds.grid.plan import RunSpec, plan_runs

CODE = """import pandas as pd
from sklearn.linear_model import LogisticRegression
train, test = pd.read_csv('data/train.csv'), pd.read_csv('data/test.csv')
X, y = train.drop(columns=['id', 'target']), train['target']
pred = LogisticRegression(max_iter=1000).fit(X, y).predict_proba(test[X.columns])[:, 1]
pd.DataFrame({'id': test['id'], 'target': pred}).to_csv('submission/submission.csv', index=False)
print('validation score: 0.9')"""


def grid(tmp_path: Path, **kw: Any) -> GridConfig:
    options = {"models": "m", "tasks": "demo/tabular-binary", "out": tmp_path, **kw}
    return GridConfig(**options)


def test_aide_runs_once_per_policy_and_other_scaffolds_take_none(tmp_path: Path) -> None:
    config = grid(tmp_path, scaffolds="basic,aide", policies="greedy,mcts,evolutionary")
    specs = plan_runs(config, ["demo/tabular-binary"])
    assert [(s.scaffold, s.policy) for s in specs] == [
        ("basic", None),
        ("aide", "greedy"),
        ("aide", "mcts"),
        ("aide", "evolutionary"),
    ]
    assert specs[2].name.startswith("aide-mcts__m__") and specs[0].name.startswith("basic__m__")
    assert len({s.name for s in specs}) == len({s.key for s in specs}) == 4
    assert specs[0].to_dict()["policy"] is None  # the plan says basic takes no policy
    assert all(RunSpec.from_dict(s.to_dict()) == s for s in specs)
    argv = scaffold_argv(config, specs[2], tmp_path / "r", resume=False, agent_user=None)
    assert argv[argv.index("--policy") + 1] == "mcts"
    assert "--policy" not in scaffold_argv(config, specs[0], tmp_path / "r", False, None)
    assert "--policy" not in scaffold_argv(config, specs[2], tmp_path / "r", True, None)
    # without --policies nothing changes: the old names, no policy anywhere
    plain = plan_runs(grid(tmp_path, scaffolds="aide"), ["t"])
    assert plain == [RunSpec("aide", "m", "t", 0)] and plain[0].name == "aide__m__t__seed0"
    assert tuple(POLICIES) == AIDE_POLICIES


def test_summaries_keep_policies_apart_with_or_without_the_plan() -> None:
    rows = [
        {"scaffold": "aide", "policy": p, "model": "m", "task": "t", "seed": k, "any_medal": medal}
        for p, medal in (("greedy", False), ("mcts", True))
        for k in (0, 1)
    ]
    rows += [
        {"scaffold": "basic", "model": "m", "task": "t", "seed": k, "any_medal": True}
        for k in (0, 1)
    ]
    for plan in (None, [RunSpec.from_dict(r) for r in rows]):
        found = {(s.arm, s.runs_planned): s.rates["any_medal"].mean for s in summarize(rows, plan)}
        assert found == {("aide-greedy", 2): 0.0, ("aide-mcts", 2): 100.0, ("basic", 2): 100.0}


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--scaffolds", "aide", "--policies", "beam"], "--policies: unknown policy 'beam'"),
        (["--scaffolds", "basic", "--policies", "mcts"], "needs at least one policy and the aide"),
    ],
)
def test_bad_policies_exit_2_with_one_line(flags: list[str], message: str, tmp_path: Path) -> None:
    argv = ["--models", "m", "--tasks", "demo/tabular-binary", "--out", str(tmp_path), *flags]
    done = subprocess.run(
        [sys.executable, "-m", "scaffolds.ablate", *argv], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1


def reply(content: str | None, *calls: tuple[str, dict[str, Any]]) -> str:
    tool_calls = [
        {"type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
        for name, args in calls
    ]
    return json.dumps({"role": "assistant", "content": content, "tool_calls": tool_calls})


def run_grid(argv: list[str], out: Path) -> list[dict[str, Any]]:
    """``python -m scaffolds.ablate ARGV`` run to its end, which must be exit 0; the rows of
    its ``results.jsonl`` in ``out``."""
    done = subprocess.run(
        [sys.executable, "-m", "scaffolds.ablate", *argv],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


@pytest.mark.slow
def test_a_grid_compares_policies_and_reports_them(agent_dir: Callable[[str], Path]) -> None:
    """Slow: a grid of three real scaffold processes (AIDE under two policies, BasicAgent),
    each with its own kernel and grading, then its report."""
    root = agent_dir("ablate-policies-")
    draft = reply(f"Plan: a logistic regression.\n\n```python\n{CODE}\n```")
    review = reply(None, ("submit_review", {"is_bug": False, "summary": "ok", "metric": 0.9}))
    (root / "aide.jsonl").write_text("\n".join([draft, review]) + "\n")
    basic = [reply(None, ("python", {"code": CODE})), reply("Done.", ("answer", {}))]
    (root / "basic.jsonl").write_text("\n".join(basic) + "\n")
    out = root / "grid"
    argv = ["--scaffolds", "aide,basic", "--models", f"replay:{root}/{{scaffold}}.jsonl"]
    argv += ["--tasks", "demo/tabular-binary", "--policies", "mcts,evolutionary"]
    argv += ["--steps", "1", "--workers", "3", "--out", str(out)]
    rows = run_grid(argv, out)
    assert sorted((r["scaffold"], r["policy"]) for r in rows) == [
        ("aide", "evolutionary"),
        ("aide", "mcts"),
        ("basic", None),
    ]
    for row in rows:
        saved = json.loads((out / row["run_dir"] / "run.json").read_text())["config"]
        assert saved.get("policy") == row["policy"]  # basic's config has no policy at all
        assert row["any_medal"], row
    plan = json.loads((out / "grid.json").read_text())
    assert plan["config"]["policies"] == ["mcts", "evolutionary"]
    planned = sorted((r["scaffold"], r["policy"]) for r in plan["runs"])
    assert planned == sorted((r["scaffold"], r["policy"]) for r in rows)  # basic: policy null
    with (out / "summary.csv").open() as f:
        table = {(r["scaffold"], r["policy"]): r for r in csv.DictReader(f)}
    assert set(table) == {("aide", "mcts"), ("aide", "evolutionary"), ("basic", "")}
    assert all(r["any_medal_pct_mean"] == "100.0" for r in table.values())
    md = (out / "summary.md").read_text()
    assert "| aide-mcts | `replay:" in md and "| basic | `replay:" in md
    assert "other scaffolds take no policy" in md
