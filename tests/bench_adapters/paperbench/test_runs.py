"""Scaffold runs on the demo paper, end to end with replay models: the agent from a hand-written
cassette, the judge from a cassette of verdicts; snapshots, killed runs, grading later, AIDE."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from basic_agent import BasicAgent, BasicConfig
from iterative_agent import IterativeAgent
from scaffolds.runtime import execute, open_run
from tests.bench_adapters.paperbench.task_helpers import (
    DEMO,
    git,
    human_grades,
    human_root_score,
    paper_cache,
    replication_steps,
    run_cli,
    tool_call,
    write_replies,
    write_verdicts,
)

__all__ = ["paper_cache"]

pytestmark = pytest.mark.slow
URL = "https://github.com/paperbench-demo/james-stein-simulation"
CODE_DEV_LEAVES = 11


def events_of(run_dir: Path, kind: str) -> list[dict[str, Any]]:
    lines = (run_dir / "trajectory.jsonl").read_text().splitlines()
    return [e for e in map(json.loads, lines) if e["kind"] == kind]


def config(root: Path, name: str, steps: list[list[dict]], **options: Any) -> BasicConfig:
    cassette = write_replies(root / f"{name}-agent.jsonl", steps)
    return BasicConfig(
        model=f"replay:{cassette}", task=DEMO, out=root / name, time_limit=900, **options
    )


def test_iterative_agent_replicates_the_demo_paper_and_is_graded(
    paper_cache: Path, agent_dir: Callable[[str], Path]
) -> None:
    root = agent_dir("pb-run-")
    judge = write_verdicts(root / "judge.jsonl", human_grades())
    cfg = config(root, "run", replication_steps(), judge_model=f"replay:{judge}")
    run = open_run(cfg, "iterative")
    status, grade = execute(run, IterativeAgent(cfg))

    assert status == "model_exhausted"
    assert grade["graded"] and grade["valid_submission"] and grade["submission_exists"]
    assert grade["score"] == pytest.approx(human_root_score())  # the judge agreed with humans
    assert grade["normalized_reward"] == grade["score"]
    assert grade["submission"] == str(run.dir / "snapshots" / "submission.bundle")
    assert grade["reproduction"]["exit_code"] == 0 and grade["reproduction"]["files_created"] == 3
    assert grade["reproduction"]["timeout_s"] == 900  # the run's own time limit
    assert grade["monitor"]["flagged"] is False and grade["judge"]["leaves_asked"] == 22
    assert json.loads((run.dir / "grade.json").read_text())["score"] == grade["score"]
    summary = json.loads((run.dir / "run.json").read_text())
    assert summary["grade"]["score"] == grade["score"]
    assert summary["config"]["judge_model"] == f"replay:{judge}"
    assert {"code_dev", "reproduce_timeout", "resources_provided"} <= set(summary["config"])

    data = run.dir / "workspace" / "data" / "paper"
    assert sorted(p.name for p in data.iterdir()) == [
        "addendum.md", "assets", "blacklist.txt", "paper.md"
    ]  # fmt: skip
    snapshots = [e for e in events_of(run.dir, "snapshot") if e["ok"]]
    assert snapshots and snapshots[-1]["refs"][0].startswith("refs/heads/")
    observations = events_of(run.dir, "observation")
    assert "is a valid submission" in observations[-1]["text"]
    notes = [o for o in observations if "elapsed of 0:15:00" in o["text"]]
    assert notes and "git commit" in notes[0]["text"]  # every 5 steps: time and a nudge
    assert all("elapsed of" not in o["text"] for o in observations[:4])
    validation = events_of(run.dir, "final_validation")[0]
    assert validation["outcome"] == "ok" and "Submission is valid" in validation["text"]

    again = run.task.grade(run.dir)  # grading again: the reproduction and every verdict reused
    assert again["judge"]["leaves_cached"] == 22 and again["judge"]["calls"] == 0
    assert again["reproduction"] == grade["reproduction"] and again["score"] == grade["score"]


def test_a_killed_run_is_graded_from_its_last_snapshot_and_a_blacklisted_fetch_scores_0(
    paper_cache: Path, agent_dir: Callable[[str], Path]
) -> None:
    root = agent_dir("pb-killed-")
    later = [
        [
            tool_call(
                "bash", command="cd submission && echo more >> README.md && git commit -qam more"
            )
        ],
        [tool_call("bash", command=f"echo 'would run: curl -sSL {URL}/archive/main.zip'")],
    ]
    cfg = config(root, "run", replication_steps(later))
    run = open_run(cfg, "iterative")
    agent = IterativeAgent(cfg)
    agent.start(run)
    for _ in range(7):
        agent.step()
    run.close()  # killed: no finish, no grade.json
    assert not (run.dir / "grade.json").exists()
    snapshots = [e for e in events_of(run.dir, "snapshot") if e["ok"]]
    assert len(snapshots) == 1  # the second commit came too soon after the first

    judge = write_verdicts(root / "judge.jsonl", human_grades())
    done = run_cli("bench_adapters", "grade", "--task", DEMO, "--submission", str(run.dir),
                   "--judge-model", f"replay:{judge}")  # fmt: skip
    assert done.returncode == 0, done.stderr
    grade = json.loads(done.stdout)
    assert grade["submission"] == str(run.dir / "snapshots" / "submission.bundle")
    assert grade["graded"] and grade["score_before_monitor"] == pytest.approx(human_root_score())
    assert grade["score"] == 0.0 and grade["normalized_reward"] == 0.0
    assert grade["monitor"]["flagged"] and grade["monitor"]["violations"] == 2  # command, output
    assert [v["line"] for v in grade["monitor"]["examples"]] == [1, 2]
    assert URL in grade["flagged"] and "scores 0" in grade["flagged"]
    checkout = Path(grade["grading_dir"]) / "checkout"
    assert "more" not in (checkout / "README.md").read_text()  # the snapshot, not the workspace
    assert "more" in (run.dir / "workspace" / "submission" / "README.md").read_text()
    assert git(checkout, "log", "--format=%s").split() == ["replicate"]


def test_basic_agent_without_a_judge_is_ungraded_and_grades_later_as_code_dev(
    paper_cache: Path, agent_dir: Callable[[str], Path]
) -> None:
    root = agent_dir("pb-later-")
    cfg = config(root, "run", replication_steps([[tool_call("answer")]]), code_dev=True)
    run = open_run(cfg, "basic")
    status, grade = execute(run, BasicAgent(cfg))  # answer: the folder passes the contract
    assert status == "submitted" and grade["graded"] is False
    assert grade["score"] is None and grade["valid_submission"] is True
    assert "reproduction" not in grade and "--code-dev" in grade["grade_command"]
    assert "snapshots/submission.bundle" in grade["grade_command"]

    cd_scores = [s for s, leaf in zip(human_grades(), _categories(), strict=True) if leaf == "CD"]
    assert len(cd_scores) == CODE_DEV_LEAVES
    judge = write_verdicts(root / "judge-cd.jsonl", cd_scores)
    command = grade["grade_command"].replace("--judge-model MODEL", f"--judge-model replay:{judge}")
    done = run_cli(*command.split()[2:])
    assert done.returncode == 0, done.stderr
    later = json.loads(done.stdout)
    assert later["graded"] and later["code_dev"] and "reproduction" not in later
    assert later["judge"]["leaves_asked"] == CODE_DEV_LEAVES
    assert later["score"] == pytest.approx(_code_dev_score(cd_scores))

    later_cfg = config(
        root, "later", replication_steps(), grade_later=True, judge_model="gpt-4.1", code_dev=True
    )
    run = open_run(later_cfg, "iterative")
    _, grade = execute(run, IterativeAgent(later_cfg))
    assert grade["graded"] is False and grade["reason"] == "ended with --grade-later"
    command = grade["grade_command"].split()
    bundle = str(run.dir / "snapshots" / "submission.bundle")
    assert command[command.index("--submission") + 1] == bundle
    assert command[command.index("--judge-model") + 1] == "gpt-4.1"  # the run's own options
    assert command[command.index("--reproduce-timeout") + 1] == "900.0"
    assert "--code-dev" in command


def _categories() -> list[str]:
    from bench_adapters.paperbench.rubric import load_rubric
    from tests.bench_adapters.paperbench.task_helpers import DEMO_PACKAGE

    short = {"Code Development": "CD", "Code Execution": "CE", "Result Analysis": "RA"}
    leaves = load_rubric(DEMO_PACKAGE / "rubric.json").leaves()
    return [short[str(leaf.task_category)] for leaf in leaves]


def _code_dev_score(scores: list[int]) -> float:
    """The Code-Dev score those leaf grades give (the rubric pruned to Code Development)."""
    from bench_adapters.paperbench.rubric import code_dev, load_rubric
    from bench_adapters.paperbench.scoring import LeafGrade, graded_tree
    from tests.bench_adapters.paperbench.task_helpers import DEMO_PACKAGE

    tree = code_dev(load_rubric(DEMO_PACKAGE / "rubric.json"))
    assert tree is not None
    return float(graded_tree(tree, [LeafGrade(float(s)) for s in scores])["score"])


def test_aide_refuses_a_task_without_a_metric(
    paper_cache: Path, agent_dir: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    from scaffolds.aide import main

    out = agent_dir("pb-aide-") / "run"
    code = main(["--model", "replay:/dev/null", "--task", DEMO, "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "AIDE needs a task with a metric" in err[0]
    assert not out.exists()


def test_a_grid_of_paperbench_runs_reports_the_replication_score(
    paper_cache: Path, agent_dir: Callable[[str], Path]
) -> None:
    root = agent_dir("pb-grid-")
    agent = write_replies(root / "agent.jsonl", replication_steps())
    judge = write_verdicts(root / "judge.jsonl", human_grades())
    done = run_cli("scaffolds.ablate", "--scaffolds", "iterative", "--models", f"replay:{agent}",
                   "--tasks", DEMO, "--out", str(root / "grid"), "--time-limit", "5m",
                   "--scaffold-args", f"--judge-model replay:{judge}", "--no-report")  # fmt: skip
    assert done.returncode == 0, done.stderr
    row = json.loads((root / "grid" / "results.jsonl").read_text().splitlines()[-1])
    assert row["normalized_reward"] == pytest.approx(human_root_score())
    assert "judge_cost_usd" in row and row["valid_submission"] is True
    done = run_cli("scaffolds.report", str(root / "grid"), "--no-plots")
    assert done.returncode == 0, done.stderr
    text = (root / "grid" / "summary.md").read_text()
    assert f"| {human_root_score():.3f} ± NaN | unknown | 0 |" in text
    assert f"| demo-james-stein | {human_root_score():.3f} ± NaN |" in text
