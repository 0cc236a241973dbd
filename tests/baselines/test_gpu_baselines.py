"""bench/gpu_baselines.py keeps its one overall budget: the plan (a pure function; no GPU here)
and a run whose budget fits nothing, which says so instead of overrunning."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from bench_adapters.mlebench import split_ids

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "gpu_baselines.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gpu_baselines", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_default_budget_runs_all_22_in_one_device_command(bench: ModuleType) -> None:
    n = len(split_ids("lite"))
    fits, work_s = bench.plan(bench.TIME_BUDGET_S, n, bench.OVERHEAD_S)
    assert n == 22 and fits == 22 and work_s >= bench.MIN_WORK_S
    assert bench.TIME_BUDGET_S <= 480  # a device command is capped at 600 s, start included


@pytest.mark.parametrize("overhead_s", [0.5, 8.0, 30.0])
@pytest.mark.parametrize("left_s", [-3.0, 0.0, 17.9, 40.0, 100.0, 420.0, 5000.0])
@pytest.mark.parametrize("n_left", [1, 2, 22])
def test_what_the_plan_runs_never_adds_up_to_more_than_is_left(
    bench: ModuleType, left_s: float, n_left: int, overhead_s: float
) -> None:
    fits, work_s = bench.plan(left_s, n_left, overhead_s)
    floor = bench.MIN_WORK_S
    assert 0 <= fits <= n_left
    assert fits * (overhead_s + work_s) <= max(0.0, left_s) + 1e-9
    if fits:
        assert work_s >= floor  # each one run gets at least the floor of work
        assert fits == n_left or (fits + 1) * (overhead_s + floor) > left_s  # as many as fit
    else:
        assert work_s == 0.0 and left_s < overhead_s + floor


def test_the_audited_case_and_a_tight_budget(bench: ModuleType) -> None:
    # Before: each got max(30, share - data) however little was left (74 s of 40 s).
    assert bench.plan(40.0, 2, 8.0) == (2, 12.0)
    assert bench.plan(100.0, 22, 8.0) == (5, 12.0)  # the other 17 are "not run: out of budget"


def test_re_planning_hands_on_what_a_competition_did_not_use(bench: ModuleType) -> None:
    """The script's loop, with each competition taking what was planned for it (the four
    tabular ones a third of it): all 22 run inside the budget and later shares grow."""
    budget, overhead, spent, works = bench.TIME_BUDGET_S, 9.0, 0.0, []
    for k in range(22):
        fits, work_s = bench.plan(budget - spent, 22 - k, overhead)
        assert fits == 22 - k
        works.append(work_s)
        spent += overhead + (work_s / 3 if k % 5 == 0 else work_s)
    assert spent <= budget and works[-1] > works[0]


def test_a_budget_that_fits_nothing_reports_not_run_and_exits_1(tmp_path: Path) -> None:
    cid = "leaf-classification"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--tasks", cid, "--time-budget", "5", "--work", tmp_path],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stderr
    assert f"| {cid} | not run: out of budget |" in done.stdout
    assert "0 of 1 run (not run: out of budget: leaf-classification)" in done.stdout
    assert not (tmp_path / "data").exists()  # nothing was written for it
    bad = subprocess.run(
        [sys.executable, str(SCRIPT), "--time-budget", "0"], capture_output=True, text=True
    )
    assert bad.returncode == 2 and bad.stderr.startswith("error: ")


def test_any_competition_with_a_baseline_is_taken_and_what_is_left_out_is_named(
    tmp_path: Path,
) -> None:
    """Beyond Lite (the scans and the other images): a budget for none of them runs none, and
    the table and the last line name each one left out; an id without a baseline is refused."""
    cids = ["osic-pulmonary-fibrosis-progression", "bms-molecular-translation"]
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--tasks", ",".join(cids), "--time-budget", "5",
         "--work", tmp_path],
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    for cid in cids:
        assert f"| {cid} | not run: out of budget |" in done.stdout
    assert f"0 of 2 run (not run: out of budget: {', '.join(cids)})" in done.stdout
    bad = subprocess.run(
        [sys.executable, str(SCRIPT), "--tasks", "osic-pulmonary-fibrosis-progression,no-such"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert bad.returncode == 2
    assert bad.stderr == "error: no baseline or no synthetic data for: no-such\n"
