"""``python -m baselines check`` on synthetic fixtures, demo tasks and stand-in leaderboards."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from baselines.cli import main
from bench_adapters.mlebench import split_ids
from tests.baselines.helpers import CPU_ONLY, RunCli, write_checkout

MEDAL_EXPECTATIONS = {"gold medal", "not above median", "above median"}


def check(argv: list[str]) -> int:
    """``python -m baselines check ARGV`` in this process."""
    return main(["check", *argv])


def outcomes(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [dict(o, task=t["task"]) for t in report["tasks"] for o in t["outcomes"]]


def test_without_leaderboards_medals_are_skipped_never_passed(
    run_cli: RunCli, mlebench_data: Path, tmp_path: Path
) -> None:
    """Slow: the seven cpu_only baselines, each trained and graded end to end, as the CLI
    runs them."""
    result = run_cli(
        "check", "--split", "cpu_only", "--data-dir", str(mlebench_data), "--out", str(tmp_path)
    )
    assert result.returncode == 0, result.stderr
    report = json.loads((tmp_path / "check.json").read_text())
    assert report["summary"]["tasks_checked"] == 7 and report["summary"]["failed"] == 0
    for o in outcomes(report):
        if o["expectation"] in MEDAL_EXPECTATIONS:
            assert o["status"] == "skip" and o["evidence"].startswith("no leaderboard"), o
        else:
            assert o["status"] == "pass", o
    # Each task: 2 gold, 2 sample, 3 baseline, 2 corrupted expectations.
    assert report["summary"] == {
        "ok": True,
        "passed": 7 * 6,
        "failed": 0,
        "skipped": 7 * 3,
        "tasks_checked": 7,
        "tasks_skipped": 0,
    }
    assert "SKIP" in result.stdout and "7 task(s) checked" in result.stdout
    rejected = [
        o for o in outcomes(report) if o["submission"] in ("missing-column", "wrong-row-count")
    ]
    assert len(rejected) == 14 and all(o["evidence"].startswith("rejected: ") for o in rejected)


def test_with_leaderboards_every_expectation_holds(
    run_cli: RunCli, mlebench_data: Path, mlebench_checkout: Path, tmp_path: Path
) -> None:
    result = run_cli(
        "check",
        "--split",
        "cpu_only",
        "--data-dir",
        str(mlebench_data),
        "--mlebench-dir",
        str(mlebench_checkout),
        "--out",
        str(tmp_path),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads((tmp_path / "check.json").read_text())
    assert report["summary"]["passed"] == 7 * 9 and report["summary"]["skipped"] == 0
    gold = [o for o in outcomes(report) if o["expectation"] == "gold medal"]
    assert len(gold) == 7 and all("gold needs" in o["evidence"] for o in gold)
    for cid in CPU_ONLY:  # each baseline's files are kept
        folder = tmp_path / f"mlebench-{cid}" / "baseline"
        assert (folder / "submission.csv").is_file() and (folder / "grade.json").is_file()
        assert "val " in (folder / "log.txt").read_text()


def test_a_failed_expectation_exits_1_naming_task_expectation_and_evidence(
    mlebench_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A field whose median only the answers reach: the baseline is not above it."""
    checkout = write_checkout(tmp_path / "hard", mlebench_data, ["spaceship-titanic"], 0.999)
    out = tmp_path / "out"
    argv = ["--tasks", "spaceship-titanic", "--data-dir", str(mlebench_data)]
    assert check([*argv, "--mlebench-dir", str(checkout), "--out", str(out)]) == 1
    failures = [line for line in capsys.readouterr().err.splitlines() if line.startswith("FAIL ")]
    assert len(failures) == 1
    assert failures[0].startswith("FAIL mlebench/spaceship-titanic: baseline: above median: score ")
    assert "vs median" in failures[0] and "(higher is better)" in failures[0]
    report = json.loads((out / "check.json").read_text())
    assert report["summary"]["ok"] is False and report["summary"]["failed"] == 1
    assert report["failures"] == [f.removeprefix("FAIL ") for f in failures]


BROKEN = {
    "copies the sample": (
        "shutil.copy(public_dir / 'sample_submission.csv', out_path)",
        ["better than the sample: score "],
    ),
    "drops a column": (
        "pd.read_csv(public_dir / 'sample_submission.csv').iloc[:, :1].to_csv(out_path, index=False)",
        ["valid: graded invalid: ", "better than the sample: the baseline submission has no score"],
    ),
    "crashes": ("raise RuntimeError('deliberately broken')", ["runs: crashed: RuntimeError"]),
}
"""Ways a baseline can be broken: the body of its ``main``, and the failures ``check`` names."""


def broken_baseline(folder: Path, body: str) -> ModuleType:
    """A baseline script (a real module file) whose ``main`` runs ``body``."""
    source = f"""
import shutil
import pandas as pd
METRIC, SEED, TIME_BUDGET_S, THREADS = "accuracy", 0, 60.0, 1
def main(public_dir, out_path, *, smoke=False, time_budget_s=60.0, threads=1):
    {body}
    return 0.5
"""
    (folder / "broken.py").write_text(source)
    spec = importlib.util.spec_from_file_location("broken_baseline", folder / "broken.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("how", sorted(BROKEN))
def test_a_deliberately_broken_baseline_fails_the_check_with_exit_1(
    how: str,
    mlebench_data: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """spaceship-titanic's script swapped for a broken one: the check, run as the CLI runs it,
    exits 1 and names the baseline's failed expectations, and only those."""
    body, named = BROKEN[how]
    monkeypatch.setitem(
        sys.modules, "baselines.mlebench.spaceship_titanic", broken_baseline(tmp_path, body)
    )
    out = tmp_path / "out"
    argv = ["--tasks", "spaceship-titanic", "--smoke", "--data-dir", str(mlebench_data)]
    assert check([*argv, "--out", str(out)]) == 1
    failures = [line for line in capsys.readouterr().err.splitlines() if line.startswith("FAIL ")]
    assert len(failures) == len(named), failures
    for line, start in zip(failures, named, strict=True):
        assert line.startswith(f"FAIL mlebench/spaceship-titanic: baseline: {start}"), line
    report = json.loads((out / "check.json").read_text())
    assert report["summary"]["ok"] is False and report["summary"]["failed"] == len(named)


def test_unprepared_tasks_are_listed_as_skipped_with_the_reason(
    demo_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    refs = "mlebench/spaceship-titanic,demo/tabular-regression"
    argv = ["--tasks", refs, "--smoke", "--data-dir", str(empty), "--demo-dir", str(demo_dir)]
    assert check([*argv, "--out", str(tmp_path / "a")]) == 0
    report = json.loads((tmp_path / "a" / "check.json").read_text())
    skipped, checked = report["tasks"]
    assert skipped["task"] == "mlebench/spaceship-titanic" and skipped["status"] == "skipped"
    assert "data not prepared" in skipped["reason"] and skipped["outcomes"] == []
    assert checked["task"] == "demo/tabular-regression" and checked["status"] == "checked"
    assert "mlebench/spaceship-titanic: skipped (" in capsys.readouterr().out

    argv = ["--tasks", "spaceship-titanic", "--data-dir", str(empty)]
    assert check([*argv, "--out", str(tmp_path / "b")]) == 1  # nothing checked is not a pass
    assert "nothing was checked" in capsys.readouterr().err
    assert json.loads((tmp_path / "b" / "check.json").read_text())["summary"]["ok"] is False


def test_lite_split_checks_all_22_competitions_and_fails_none(
    lite_check: dict[str, Any],
) -> None:
    """The smoke check of the Lite split on the synthetic data (each competition's own
    expectations are in tests/baselines/mlebench/)."""
    from bench_adapters.mlebench.synthetic import synthetic_competitions

    assert set(split_ids("lite")) <= set(synthetic_competitions())  # all 22 have fixtures
    by_task = {t["task"]: t for t in lite_check["tasks"]}
    assert set(by_task) == {f"mlebench/{c}" for c in split_ids("lite")}
    with_data = {f"mlebench/{c}" for c in split_ids("lite") if c in synthetic_competitions()}
    assert {t for t, r in by_task.items() if r["status"] == "checked"} == with_data
    assert lite_check["summary"]["failed"] == 0, lite_check["failures"]
    assert lite_check["smoke"] is True


def test_demo_split_meets_every_expectation_against_real_leaderboards(
    demo_dir: Path, tmp_path: Path
) -> None:
    assert check(["--split", "demo", "--demo-dir", str(demo_dir), "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "check.json").read_text())
    assert report["summary"]["passed"] == 3 * 9 and report["summary"]["skipped"] == 0
