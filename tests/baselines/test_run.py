"""Baselines end to end: public data in, a valid submission and a grade out."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest

from baselines import BASELINES, baseline_module, run_baseline
from baselines.kit import call_main
from bench_adapters import REPORT_KEYS, resolve_task
from bench_adapters.mlebench import split_ids
from tests.baselines.helpers import CPU_ONLY, RunCli

METRIC_LINE = re.compile(r"^val ([\w.@-]+) (-?\d+\.\d{5}) \(.+\)$", re.MULTILINE)


def test_every_cpu_only_competition_and_demo_task_has_a_baseline() -> None:
    from bench_adapters import list_tasks

    mlebench = {r for r in BASELINES if r.startswith("mlebench/")}
    assert {f"mlebench/{c}" for c in CPU_ONLY} <= mlebench
    assert mlebench <= set(list_tasks("mlebench"))
    assert set(list_tasks("demo")) | set(list_tasks("paperbench", "demo")) <= set(BASELINES)
    for ref in BASELINES:
        module = baseline_module(ref)
        assert module.__doc__ and "python -m baselines run --task " + ref in module.__doc__
        assert isinstance(module.SEED, int) and module.TIME_BUDGET_S > 0 and module.METRIC


LITE_CHECKED = {f"mlebench/{c}" for c in split_ids("lite")} - {f"mlebench/{c}" for c in CPU_ONLY}
"""Run once, through the grader, by the ``lite_check`` fixture (tests/baselines/mlebench/)."""
OWN_CHECK = (
    {r for r in BASELINES if r.startswith("mlebench/")}
    - LITE_CHECKED
    - {f"mlebench/{c}" for c in CPU_ONLY}
)
"""The competitions beyond Lite: each test module of tests/baselines/mlebench/ runs its smoke
check through the grader (tests/baselines/competition_smoke.py), offline (--pretrained none)."""


@pytest.mark.parametrize(
    "ref",
    [
        r
        for r in BASELINES
        if not r.startswith(("paperbench/", "tam/")) and r not in LITE_CHECKED | OWN_CHECK
    ],
)
def test_smoke_baseline_sees_only_public_data_and_writes_a_valid_submission(
    ref: str,
    mlebench_data: Path,
    demo_dir: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    task = resolve_task(ref, data_dir=mlebench_data, demo_dir=demo_dir)
    public = tmp_path / "alone" / "public"  # a copy with no private/ beside it
    shutil.copytree(task.public_dir, public)
    out = tmp_path / "submission.csv"

    score = call_main(baseline_module(ref), public, out, smoke=True, threads=1)

    lines = METRIC_LINE.findall(capsys.readouterr().out)
    assert lines == [(baseline_module(ref).METRIC, f"{score:.5f}")]
    sample = pd.read_csv(task.sample_submission_path)
    submission = pd.read_csv(out)
    assert list(submission.columns) == list(sample.columns)
    assert len(submission) == len(sample)
    key = sample.columns[0]
    assert sorted(submission[key].astype(str)) == sorted(sample[key].astype(str))
    assert task.validate(out) == (True, "Submission is valid.")


def test_run_cli_writes_submission_and_grade(
    run_cli: RunCli, mlebench_data: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    result = run_cli(
        "run",
        "--task",
        "mlebench/spaceship-titanic",
        "--data-dir",
        str(mlebench_data),
        "--out",
        str(out),
        "--smoke",
    )
    assert result.returncode == 0, result.stderr
    assert "val accuracy " in result.stdout
    assert "above median: unknown (no leaderboard)" in result.stdout
    grade = json.loads((out / "grade.json").read_text())
    assert list(grade) == list(REPORT_KEYS)
    assert grade["valid_submission"] is True and grade["gold_medal"] is None
    record = json.loads((out / "baseline.json").read_text())
    assert record["task"] == "mlebench/spaceship-titanic" and record["smoke"] is True
    assert record["test_score"] == grade["score"]
    assert 0 < record["peak_rss_mib"] < 4096  # the baseline process's own VmHWM
    sample = pd.read_csv(
        resolve_task("mlebench/spaceship-titanic", data_dir=mlebench_data).sample_submission_path
    )
    assert pd.read_csv(out / "submission.csv")["Transported"].dtype == bool
    assert len(pd.read_csv(out / "submission.csv")) == len(sample)


@pytest.mark.parametrize("task_id", ["tabular-binary", "tabular-regression", "digits-image"])
def test_full_demo_baseline_beats_the_leaderboard_median(
    task_id: str, demo_dir: Path, tmp_path: Path
) -> None:
    task = resolve_task(f"demo/{task_id}", demo_dir=demo_dir)
    run = run_baseline(task, tmp_path)
    report = run.grade
    assert report["valid_submission"] is True
    assert report["above_median"] is True, report
    sample = task.grade(task.sample_submission_path)["score"]
    better = (lambda a, b: a < b) if task.is_lower_better else (lambda a, b: a > b)
    assert better(report["score"], report["median_threshold"]) and better(report["score"], sample)
