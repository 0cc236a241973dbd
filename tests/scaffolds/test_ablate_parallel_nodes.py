"""AIDE's nodes in flight as a factor of a grid (``--parallel-nodes``), like ``--policies``: the
plan, the command lines, the results' rows and summaries that keep each value apart, and a real
grid at two widths."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from aide_tree.cassette import keyed, operator_reply, review_call, write_cassette
from scaffolds.grid.aggregate import row_key, summarize
from scaffolds.grid.command import scaffold_argv
from scaffolds.grid.config import GridConfig
from scaffolds.grid.plan import RunSpec, plan_runs
from tests.scaffolds.test_ablate_policies import CODE, run_grid


def grid(tmp_path: Path, **kw: Any) -> GridConfig:
    options = {"models": "m", "tasks": "demo/tabular-binary", "out": tmp_path, **kw}
    return GridConfig(**options)


def test_aide_runs_once_per_policy_and_width_and_other_scaffolds_take_neither(
    tmp_path: Path,
) -> None:
    config = grid(tmp_path, scaffolds="basic,aide", policies="greedy,mcts", parallel_nodes="1,4")
    specs = plan_runs(config, ["demo/tabular-binary"])
    assert [(s.scaffold, s.policy, s.parallel_nodes) for s in specs] == [
        ("basic", None, None),
        ("aide", "greedy", 1),
        ("aide", "greedy", 4),
        ("aide", "mcts", 1),
        ("aide", "mcts", 4),
    ]
    assert specs[4].name.startswith("aide-mcts-n4__m__") and specs[0].arm == "basic"
    assert len({s.name for s in specs}) == len({s.key for s in specs}) == 5
    assert all(RunSpec.from_dict(s.to_dict()) == s for s in specs)
    argv = scaffold_argv(config, specs[2], tmp_path / "r", resume=False, agent_user=None)
    assert argv[argv.index("--parallel-nodes") + 1] == "4"
    assert "--parallel-nodes" not in scaffold_argv(config, specs[0], tmp_path / "r", False, None)
    assert "--parallel-nodes" not in scaffold_argv(config, specs[2], tmp_path / "r", True, None)
    alone = plan_runs(grid(tmp_path, scaffolds="aide", parallel_nodes="2"), ["t"])
    assert alone == [RunSpec("aide", "m", "t", 0, None, 2)] and alone[0].arm == "aide-n2"
    plain = plan_runs(grid(tmp_path, scaffolds="aide"), ["t"])  # without it, nothing changes
    assert plain == [RunSpec("aide", "m", "t", 0)] and plain[0].name == "aide__m__t__seed0"


def test_summaries_keep_each_width_apart_with_or_without_the_plan() -> None:
    rows = [
        {"scaffold": "aide", "parallel_nodes": n, "model": "m", "task": "t", "seed": k}
        | {"any_medal": medal}
        for n, medal in ((1, False), (4, True))
        for k in (0, 1)
    ]
    rows += [
        {"scaffold": "aide", "model": "m", "task": "t", "seed": k, "any_medal": True}
        for k in (0, 1)
    ]
    assert row_key(rows[-1])[-2:] == (None, None)  # a row written before either factor
    for plan in (None, [RunSpec.from_dict(r) for r in rows]):
        found = {(s.arm, s.runs_planned): s.rates["any_medal"].mean for s in summarize(rows, plan)}
        assert found == {("aide-n1", 2): 0.0, ("aide-n4", 2): 100.0, ("aide", 2): 100.0}


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--scaffolds", "aide", "--parallel-nodes", "0"], "at least 1"),
        (
            ["--scaffolds", "basic", "--parallel-nodes", "2"],
            "needs at least one value and the aide",
        ),
    ],
)
def test_bad_widths_exit_2_with_one_line(flags: list[str], message: str, tmp_path: Path) -> None:
    argv = ["--models", "m", "--tasks", "demo/tabular-binary", "--out", str(tmp_path), *flags]
    done = subprocess.run(
        [sys.executable, "-m", "scaffolds.ablate", *argv], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_the_report_csv_has_a_width_column_only_for_a_grid_with_widths() -> None:
    from scaffolds.report import csv_rows

    rows = [
        {"scaffold": "aide", "parallel_nodes": n, "model": "m", "task": "t", "seed": 0}
        for n in (1, 4)
    ]
    assert [r["parallel_nodes"] for r in csv_rows(summarize(rows))] == [1, 4]
    plain = [{"scaffold": "aide", "model": "m", "task": "t", "seed": 0}]
    assert "parallel_nodes" not in csv_rows(summarize(plain))[0]


@pytest.mark.slow
def test_a_grid_runs_aide_at_each_width_and_reports_each(agent_dir: Callable[[str], Path]) -> None:
    """Slow: a grid of two real AIDE processes, one node in flight and two, each starting its
    kernels and graded, then its report. One cassette, keyed by node, serves both widths."""
    root = agent_dir("ablate-widths-")
    replies = {
        i: [
            operator_reply(f"Attempt {i}: a logistic regression.", CODE),
            review_call(False, "ok", 0.9),
        ]
        for i in range(3)
    }
    replay = write_cassette(root / "keyed.jsonl", keyed(replies))
    out = root / "grid"
    argv = ["--scaffolds", "aide", "--models", f"replay:{replay}", "--parallel-nodes", "1,2"]
    argv += ["--tasks", "demo/tabular-binary", "--steps", "3", "--workers", "2", "--out", str(out)]
    rows = run_grid(argv, out)
    assert sorted(r["parallel_nodes"] for r in rows) == [1, 2]
    for row in rows:
        run_dir = out / row["run_dir"]
        saved = json.loads((run_dir / "run.json").read_text())
        assert saved["config"]["parallel_nodes"] == row["parallel_nodes"] and row["any_medal"], row
        assert saved["steps"] == 3, saved
        header, *nodes = (json.loads(line) for line in (run_dir / "journal.jsonl").open())
        assert sorted(n["id"] for n in nodes) == [0, 1, 2]
        # one node at a time keeps today's journal; nodes in flight key theirs by id
        assert header["format_version"] == (3 if row["parallel_nodes"] == 2 else 2), header
    with (out / "summary.csv").open() as f:
        assert sorted(r["parallel_nodes"] for r in csv.DictReader(f)) == ["1", "2"]
