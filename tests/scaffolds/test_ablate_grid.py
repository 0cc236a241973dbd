"""Ablation grids end to end: real scaffold processes on the demo tasks with replay models.

One module-scoped grid (3 scaffolds x 2 models x 2 tasks x 2 seeds, local backend) is killed
mid-way with SIGKILL and run again; the tests then check that nothing was lost or rerun and
that the tables match the runs' own grades. Smaller grids cover crashes and the Ray backend.
"""

from __future__ import annotations

import contextlib
import csv
import json
import math
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scaffolds.grid.command import busy
from scaffolds.grid.plan import RunSpec

TASKS = "demo/tabular-binary,demo/tabular-regression"

GOOD = """import pandas as pd
from sklearn.linear_model import LogisticRegression, RidgeCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
train, test = pd.read_csv('data/train.csv'), pd.read_csv('data/test.csv')
X, y = train.drop(columns=['id', 'target']), train['target']
if y.nunique() == 2:
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(X, y)
    pred = model.predict_proba(test[X.columns])[:, 1]
else:
    pred = make_pipeline(StandardScaler(), RidgeCV()).fit(X, y).predict(test[X.columns])
pd.DataFrame({'id': test['id'], 'target': pred}).to_csv('submission/submission.csv', index=False)
print('validation score: 0.9')"""
"""A real model: gold on tabular-binary, a medal on tabular-regression."""

WEAK = """import pandas as pd
train, test = pd.read_csv('data/train.csv'), pd.read_csv('data/test.csv')
mean = float(train['target'].mean())
pd.DataFrame({'id': test['id'], 'target': mean}).to_csv('submission/submission.csv', index=False)
print('validation score: 0.5')"""
"""A constant prediction: valid, below the median, no medal."""

USAGE = {"prompt_tokens": 100, "completion_tokens": 20, "cost_usd": 0.001}
TOKENS_PER_CALL = 120
CALLS_PER_RUN = {"basic": 2, "iterative": 2, "aide": 4}
"""With --steps 2: basic writes then answers; iterative writes, then pokes until its steps run
out; AIDE makes two nodes of a draft and a review each."""


def reply(content: str | None = None, *calls: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    tool_calls = [
        {"type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
        for name, args in calls
    ]
    return {"role": "assistant", "content": content, "tool_calls": tool_calls, "usage": USAGE}


def replies(scaffold: str, code: str) -> list[dict[str, Any]]:
    if scaffold == "basic":
        return [reply(None, ("python", {"code": code})), reply("Done.", ("answer", {}))]
    if scaffold == "iterative":
        poke = reply(None, ("python", {"code": "print('still working')"}))
        return [reply(None, ("python", {"code": code})), poke, poke, poke]
    draft = reply(f"Plan: fit a linear model on all features.\n\n```python\n{code}\n```")
    review = reply(
        None, ("submit_review", {"is_bug": False, "summary": "Wrote a submission.", "metric": 0.9})
    )
    return [draft, review] * 4


def write_cassettes(folder: Path) -> tuple[str, str]:
    """Two replay models: ``good`` always solves; ``mixed`` solves with seed 0 only."""
    folder.mkdir(parents=True, exist_ok=True)
    for scaffold in CALLS_PER_RUN:
        for name, code in (
            (f"good-{scaffold}", GOOD),
            (f"mixed-{scaffold}-seed0", GOOD),
            (f"mixed-{scaffold}-seed1", WEAK),
        ):
            lines = [json.dumps(r) for r in replies(scaffold, code)]
            (folder / f"{name}.jsonl").write_text("\n".join(lines) + "\n")
    return (
        f"replay:{folder}/good-{{scaffold}}.jsonl",
        f"replay:{folder}/mixed-{{scaffold}}-seed{{seed}}.jsonl",
    )


def ablate(*args: str) -> list[str]:
    return [sys.executable, "-m", "scaffolds.ablate", *args]


def rows_of(grid: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (grid / "results.jsonl").read_text().splitlines()]


def latest(grid: Path) -> dict[str, dict[str, Any]]:
    return {r["run"]: r for r in rows_of(grid)}


def names_in(results: Path) -> set[str]:
    """Runs with a row so far, read while the grid may be writing (a torn line is skipped)."""
    names = set()
    for line in results.read_text().splitlines() if results.exists() else []:
        with contextlib.suppress(json.JSONDecodeError):
            names.add(json.loads(line)["run"])
    return names


def summary_csv(grid: Path) -> dict[tuple[str, str], dict[str, str]]:
    with (grid / "summary.csv").open() as f:
        return {(r["scaffold"], r["model"]): r for r in csv.DictReader(f)}


def close(value: str, expected: float) -> bool:
    return math.isclose(float(value), expected, rel_tol=1e-6, abs_tol=1e-6)


@pytest.fixture(scope="module")
def root(agent_dir: Callable[[str], Path]) -> Path:
    """A world-traversable folder: the agent user must reach the run workspaces."""
    return agent_dir("ablate-test-")


@pytest.fixture(scope="module")
def killed_grid(root: Path) -> dict[str, Any]:
    """The full grid, SIGKILLed once a few runs have finished and another is under way, then
    run again to the end. Returns what was on disk at the kill and what happened after."""
    good, mixed = write_cassettes(root / "cassettes")
    grid = root / "full"
    argv = ablate("--scaffolds", "basic,iterative,aide", "--models", f"{good},{mixed}",
                  "--tasks", TASKS, "--seeds", "2", "--steps", "2", "--time-limit", "10m",
                  "--workers", "2", "--out", str(grid))  # fmt: skip
    with (root / "killed-grid.log").open("w") as log:
        first = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and first.poll() is None:
        done = {n for n in names_in(grid / "results.jsonl")}
        under_way = [
            d.name
            for d in (grid / "runs").glob("*")
            if d.name not in done
            and (d / "run.json").exists()
            and json.loads((d / "run.json").read_text())["status"] == "running"
        ]
        if len(done) >= 3 and under_way:
            break
        time.sleep(0.2)
    assert first.poll() is None, "the grid ended before it could be killed"
    first.send_signal(signal.SIGKILL)
    first.wait()
    while any(busy(d) for d in (grid / "runs").iterdir()):  # its runs stop on their own
        time.sleep(0.2)
    records = {d.name: json.loads((d / "run.json").read_text()) for d in (grid / "runs").iterdir()
               if (d / "run.json").exists()}  # fmt: skip
    finished = {
        name: {
            f: (grid / "runs" / name / f).read_bytes()
            for f in ("run.json", "trajectory.jsonl", "grade.json", "grid_attempts.jsonl")
        }
        for name, record in records.items()
        if record["status"] not in ("running", "interrupted")
    }
    interrupted = [n for n, r in records.items() if r["status"] in ("running", "interrupted")]
    results_before = (grid / "results.jsonl").read_bytes()
    second = subprocess.run(argv, capture_output=True, text=True, timeout=400)
    lines_after_second = len(rows_of(grid))
    third = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    return {
        "grid": grid,
        "good": good,
        "mixed": mixed,
        "finished_at_kill": finished,
        "interrupted_at_kill": interrupted,
        "results_at_kill": results_before,
        "second": second,
        "lines_after_second": lines_after_second,
        "third": third,
    }


def test_killed_grid_reruns_nothing_finished_and_loses_nothing(killed_grid) -> None:
    grid, second = killed_grid["grid"], killed_grid["second"]
    errors = [p.read_text()[-3000:] for p in (grid / "runs").glob("*/grid_error.txt")]
    assert second.returncode == 0, second.stderr[-3000:] + "\n".join(errors)
    finished = killed_grid["finished_at_kill"]
    assert len(finished) >= 3
    assert f"24 runs, {len(finished)} already done" in second.stderr
    for name in finished:  # finished at the kill, with or without a row yet: never restarted
        assert latest(grid)[name]["attempts"] == 1
    for name, files in finished.items():  # byte for byte: not rerun, not resumed, not rewritten
        for file, content in files.items():
            assert (grid / "runs" / name / file).read_bytes() == content, (name, file)
    # append-only: the file at the kill is a prefix of the file now
    assert (grid / "results.jsonl").read_bytes().startswith(killed_grid["results_at_kill"])
    rows = latest(grid)
    assert len(rows) == 24 and all(
        r["status"] in ("submitted", "step_limit") for r in rows.values()
    )
    resumed = killed_grid["interrupted_at_kill"]
    assert resumed, "the run under way at the kill should have been resumed"
    for name in resumed:
        log = [json.loads(x) for x in (grid / "runs" / name / "grid_attempts.jsonl").open()]
        assert [e["event"] for e in log] == ["start", "start", "end"]  # the kill left no end
        assert log[-1]["resumed"] and "--resume" in log[-1]["command"]
        assert rows[name]["attempts"] == 2
        trajectory = (grid / "runs" / name / "trajectory.jsonl").read_text()
        assert '"resumed": true' in trajectory
    assert not (grid / "old_attempts").exists()  # nothing had to be set aside


def test_full_grid_tables_match_the_runs_grades(killed_grid) -> None:
    grid, good, mixed = killed_grid["grid"], killed_grid["good"], killed_grid["mixed"]
    rows = latest(grid)
    for row in rows.values():  # each row agrees with its run's own record
        record = json.loads((grid / row["run_dir"] / "run.json").read_text())
        grade = record["grade"]
        assert row["status"] == record["status"]
        assert (row["score"], row["any_medal"], row["gold_medal"]) == (
            grade["score"], grade["any_medal"], grade["gold_medal"])  # fmt: skip
        assert row["made_submission"] == grade["submission_exists"] is True
        expected_tokens = TOKENS_PER_CALL * CALLS_PER_RUN[row["scaffold"]]
        if row["attempts"] == 1:
            assert row["tokens"] == expected_tokens
        else:  # a call whose step the kill cut short was paid for, and asked again
            assert row["tokens"] >= expected_tokens
        assert row["wall_time_s"] > 0
        assert row["any_medal"] == (row["model"] == good or row["seed"] == 0)
    statuses = {
        name: (r["status"], r["attempts"], r.get("crash_reason")) for name, r in rows.items()
    }
    assert all(r["status"] == "submitted" for r in rows.values() if r["scaffold"] == "basic"), (
        statuses
    )
    assert all(r["status"] == "step_limit" for r in rows.values() if r["scaffold"] != "basic"), (
        statuses
    )

    table = summary_csv(grid)
    assert len(table) == 6
    for (scaffold, model), row in table.items():
        cells = [r for r in rows.values() if (r["scaffold"], r["model"]) == (scaffold, model)]
        per_seed = [100 * sum(r["gold_medal"] for r in cells if r["seed"] == s) / 2 for s in (0, 1)]
        assert close(row["gold_medal_pct_mean"], sum(per_seed) / 2)
        assert close(row["valid_submission_pct_mean"], 100) and close(
            row["valid_submission_pct_sem"], 0
        )
        assert int(row["tokens_total"]) == sum(r["tokens"] for r in cells)
        assert close(row["cost_usd_total"], sum(r["cost_usd"] for r in cells))
        assert sum(r["tokens"] for r in cells) >= 4 * CALLS_PER_RUN[scaffold] * TOKENS_PER_CALL
        if model == good:
            assert close(row["any_medal_pct_mean"], 100) and close(row["any_medal_pct_sem"], 0)
            assert close(row["pass@1_pct"], 100) and close(row["pass@2_pct"], 100)
        else:  # seed 0 medals on both tasks, seed 1 on none
            assert model == mixed
            assert close(row["any_medal_pct_mean"], 50) and close(row["any_medal_pct_sem"], 50)
            assert close(row["above_median_pct_mean"], 50)
            assert close(row["pass@1_pct"], 50) and close(row["pass@2_pct"], 100)
    md = (grid / "summary.md").read_text()
    assert "| basic | `" + good + "` | 4/4, 0 | 100.0 ± 0.0 |" in md
    assert "50.0 ± 50.0" in md
    for png in ("any_medal.png", "pass_at_k.png"):
        assert (grid / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_rerunning_a_finished_grid_starts_nothing(killed_grid) -> None:
    grid, third = killed_grid["grid"], killed_grid["third"]
    assert third.returncode == 0, third.stderr
    assert "24 runs, 24 already done, 0 to run" in third.stderr
    assert len(latest(grid)) == 24
    assert len(rows_of(grid)) == killed_grid["lines_after_second"]
    attempts_total = sum(
        (d / "grid_attempts.jsonl").read_text().count('"event": "start"')
        for d in (grid / "runs").iterdir()
    )
    assert attempts_total == 24 + sum(r["attempts"] - 1 for r in latest(grid).values())


def test_a_crashed_run_is_recorded_and_the_grid_goes_on(root: Path) -> None:
    """Slow: two grids of real scaffold processes (each run starts its kernel and grades), the
    second resuming the first."""
    good, _ = write_cassettes(root / "cassettes")
    grid = root / "crash"
    broken = f"replay:{root}/no-such-cassette.jsonl"
    argv = ablate("--scaffolds", "basic", "--models", f"{broken},{good}",
                  "--tasks", "demo/tabular-binary", "--steps", "2", "--out", str(grid))  # fmt: skip
    first = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert first.returncode == 1, first.stderr
    assert "1 run(s) failed" in first.stderr and "(crashed)" in first.stderr
    rows = {r["model"]: r for r in latest(grid).values()}
    assert rows[good]["status"] == "submitted" and rows[good]["any_medal"]
    crashed = rows[broken]
    assert crashed["status"] == "crashed" and crashed["made_submission"] is False
    assert "exited with code 2" in crashed["error"] and "no-such-cassette" in crashed["error"]
    error_file = grid / crashed["run_dir"] / "grid_error.txt"
    assert error_file.read_text() == crashed["error"]
    table = summary_csv(grid)
    assert table[("basic", broken)]["runs_crashed"] == "1"
    assert close(table[("basic", broken)]["made_submission_pct_mean"], 0)
    assert close(table[("basic", good)]["any_medal_pct_mean"], 100)

    kept = subprocess.run(
        [*argv, "--no-retry-crashed"], capture_output=True, text=True, timeout=120
    )
    assert "2 already done, 0 to run" in kept.stderr and kept.returncode == 1
    again = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert "1 already done, 1 to run" in again.stderr and again.returncode == 1
    assert len([r for r in rows_of(grid) if r["model"] == broken]) == 2  # appended, not replaced
    log = (grid / crashed["run_dir"] / "scaffold.log").read_text()
    assert log.count("=== grid attempt") == 2  # one log, both tries


def test_sigterm_stops_runs_as_interrupted_and_a_rerun_resumes_them(root: Path) -> None:
    """Slow: a grid of real scaffold processes, stopped mid-run, then run again to the end."""
    good, _ = write_cassettes(root / "cassettes")
    grid = root / "term"
    argv = ablate("--scaffolds", "basic", "--models", good, "--tasks", "demo/tabular-binary",
                  "--steps", "2", "--out", str(grid))  # fmt: skip
    grid_process = subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    run_json = grid / "runs" / RunSpec("basic", good, "demo/tabular-binary", 0).name / "run.json"
    deadline = time.monotonic() + 120
    while not run_json.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    grid_process.send_signal(signal.SIGTERM)
    _, err = grid_process.communicate(timeout=120)
    assert grid_process.returncode == 130, err
    assert "interrupted; stopping the runs" in err
    (row,) = rows_of(grid)
    assert row["status"] == "interrupted" and row["error"] is None
    assert not (run_json.parent / "grid_error.txt").exists()
    again = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and "1 to run" in again.stderr
    assert latest(grid)[row["run"]]["status"] == "submitted"
    assert json.loads(run_json.read_text())["status"] == "submitted"


@pytest.mark.ray
@pytest.mark.serial  # ray.init may join a running cluster, such as the 3-node test's
def test_ray_grid_on_a_local_instance_ends_with_correct_tables(root: Path) -> None:
    """Slow: starts a local Ray instance, then a grid of real scaffold processes on it."""
    _, mixed = write_cassettes(root / "cassettes")
    grid = root / "ray"
    argv = ablate("--scaffolds", "basic", "--models", mixed, "--tasks", "demo/tabular-binary",
                  "--seeds", "2", "--steps", "2", "--out", str(grid), "--backend", "ray",
                  "--ray-cpus", "2")  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = latest(grid)
    assert sorted(r["seed"] for r in rows.values()) == [0, 1]
    for row in rows.values():
        run_dir = grid / row["run_dir"]
        assert json.loads((run_dir / "run.json").read_text())["status"] == "submitted"
        assert (run_dir / "submission" / "submission.csv").is_file()
        assert "scaffolds.basic" in (run_dir / "scaffold.log").read_text()
        assert not (run_dir / "workspace" / "data").exists()  # public data is not shipped back
        assert row["any_medal"] == (row["seed"] == 0)
    row = summary_csv(grid)[("basic", mixed)]
    assert close(row["any_medal_pct_mean"], 50) and close(row["any_medal_pct_sem"], 50)
    assert close(row["pass@1_pct"], 50) and close(row["pass@2_pct"], 100)
    assert int(row["tokens_total"]) == 2 * 2 * TOKENS_PER_CALL
