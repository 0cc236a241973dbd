"""``python -m scaffolds.report`` on fixed results files, against values computed by hand.

The main fixture is 3 tasks x 3 seeds of one scaffold x model, with these flags per seed 0/1/2:

    task  submission  valid      above median  any medal  gold       reward
    t1    Y Y Y       Y Y Y      Y Y N         Y Y N      Y N N      0.9 0.8 0.2
    t2    Y Y N       Y N N      Y N N         N N N      N N N      0.0 -   -
    t3    Y Y Y       Y Y Y      Y N N         Y N N      N N N      0.6 0.1 0.0
"""

from __future__ import annotations

import csv
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scaffolds.grid.aggregate import mean_sem, pass_at_k
from scaffolds.report import main

FLAGS = {  # (task, seed) -> made, valid, above median, any medal, gold, reward
    ("t1", 0): (1, 1, 1, 1, 1, 0.9),
    ("t1", 1): (1, 1, 1, 1, 0, 0.8),
    ("t1", 2): (1, 1, 0, 0, 0, 0.2),
    ("t2", 0): (1, 1, 1, 0, 0, 0.0),
    ("t2", 1): (1, 0, 0, 0, 0, None),
    ("t2", 2): (0, 0, 0, 0, 0, None),
    ("t3", 0): (1, 1, 1, 1, 0, 0.6),
    ("t3", 1): (1, 1, 0, 0, 0, 0.1),
    ("t3", 2): (1, 1, 0, 0, 0, 0.0),
}


def row(scaffold: str, model: str, task: str, seed: int, **fields: Any) -> dict[str, Any]:
    made, valid, above, medal, gold, reward = FLAGS[(task, seed)]
    base = {
        "scaffold": scaffold, "model": model, "task": task, "seed": seed,
        "status": "submitted", "made_submission": bool(made), "valid_submission": bool(valid),
        "above_median": bool(above), "any_medal": bool(medal), "gold_medal": bool(gold),
        "normalized_reward": reward, "tokens": 1000, "cost_usd": 0.01,
    }  # fmt: skip
    return {**base, **fields}


def write_rows(folder: Path, rows: list[dict[str, Any]], tail: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(r) + "\n" for r in rows) + tail
    (folder / "results.jsonl").write_text(text)
    return folder


def report(folder: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """The command as a user runs it, in its own process."""
    argv = [sys.executable, "-m", "scaffolds.report", str(folder), *flags]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120)


def report_here(folder: Path, *flags: str) -> int:
    """The same entry point in this process (faster, for the smaller cases)."""
    return main([str(folder), *flags])


def table(folder: Path) -> dict[tuple[str, str], dict[str, str]]:
    with (folder / "summary.csv").open() as f:
        return {(r["scaffold"], r["model"]): r for r in csv.DictReader(f)}


def near(value: str, expected: float) -> bool:
    if math.isnan(expected):
        return value == "nan"
    return math.isclose(float(value), expected, abs_tol=2e-6)


@pytest.fixture(scope="module")
def fixed(tmp_path_factory) -> Path:
    rows = [row("aide", "m1", t, s) for t in ("t1", "t2", "t3") for s in (0, 1, 2)]
    rows[8]["cost_usd"] = None  # one run of unknown cost
    # a run first recorded as crashed, then finished on a rerun: the later line counts
    first_try = row("aide", "m1", "t3", 2, status="crashed", made_submission=False,
                    valid_submission=False, tokens=5)  # fmt: skip
    rows.insert(0, first_try)
    folder = write_rows(tmp_path_factory.mktemp("fixed"), rows, tail='{"scaffold": "ai')
    done = report(folder)
    assert done.returncode == 0, done.stderr
    return folder


def test_rates_are_per_seed_percentages_then_mean_and_sem_over_seeds(fixed) -> None:
    r = table(fixed)[("aide", "m1")]
    sem3 = math.sqrt(3)
    # any medal per seed: 2/3, 1/3, 0/3 of tasks -> 66.7, 33.3, 0; std (ddof=1) 33.3
    assert near(r["any_medal_pct_mean"], 100 / 3)
    assert near(r["any_medal_pct_sem"], (100 / 3) / sem3)
    # gold per seed: 33.3, 0, 0; deviations 22.2, -11.1, -11.1
    assert near(r["gold_medal_pct_mean"], 100 / 9)
    assert near(r["gold_medal_pct_sem"], math.sqrt((200**2 + 2 * 100**2) / 2) / 9 / sem3)
    assert near(r["made_submission_pct_mean"], 800 / 9)  # 100, 100, 66.7
    assert near(r["made_submission_pct_sem"], math.sqrt((2 * 100**2 + 200**2) / 2) / 9 / sem3)
    assert near(r["valid_submission_pct_mean"], 700 / 9)  # 100, 66.7, 66.7
    assert near(r["above_median_pct_mean"], 400 / 9)  # 100, 33.3, 0
    assert near(r["above_median_pct_sem"], math.sqrt((500**2 + 100**2 + 400**2) / 2) / 9 / sem3)
    # reward per seed: (0.9+0+0.6)/3, (0.8+0+0.1)/3, (0.2+0+0)/3; missing reward counts as 0
    per_seed = [0.5, 0.3, 0.2 / 3]
    mean = sum(per_seed) / 3
    std = math.sqrt(sum((x - mean) ** 2 for x in per_seed) / 2)
    assert near(r["normalized_reward_mean"], mean) and near(r["normalized_reward_sem"], std / sem3)
    assert (r["tasks"], r["seeds"], r["runs_planned"], r["runs_finished"]) == ("3", "3", "9", "9")


def test_pass_at_k_is_the_unbiased_estimator_averaged_over_tasks(fixed) -> None:
    r = table(fixed)[("aide", "m1")]
    # medals out of n=3 seeds: t1 c=2, t2 c=0, t3 c=1
    # pass@1: (1 - 1/3) + 0 + (1 - 2/3) over 3 tasks; pass@2: (1 - 0) + 0 + (1 - 1/3); pass@3: 1 + 0 + 1
    assert near(r["pass@1_pct"], 100 * (2 / 3 + 0 + 1 / 3) / 3)
    assert near(r["pass@2_pct"], 100 * (1 + 0 + 2 / 3) / 3)
    assert near(r["pass@3_pct"], 100 * 2 / 3)
    assert near(r["pass@1_pct"], float(r["any_medal_pct_mean"]))  # pass@1 is the medal rate


def test_tokens_and_cost_use_the_latest_row_of_each_run(fixed) -> None:
    r = table(fixed)[("aide", "m1")]
    assert r["tokens_total"] == "9000" and near(r["tokens_per_run"], 1000)
    assert near(r["cost_usd_total"], 0.08) and near(r["cost_usd_per_run"], 0.08 / 9)
    assert r["runs_crashed"] == "0"  # the crashed first try was superseded


def test_markdown_and_plots_are_written(fixed) -> None:
    md = (fixed / "summary.md").read_text()
    assert "| aide | `m1` | 9/9, 0 | 88.9 ± 11.1 | 77.8 ± 11.1 | 44.4 ± 29.4 | 33.3 ± 19.2 |" in md
    assert "| aide | `m1` | 33.3 | 55.6 | 66.7 |" in md  # pass@1..3
    assert "| t2 | 0/3 |" in md and "| t1 | 2/3 |" in md
    for png in ("any_medal.png", "pass_at_k.png"):
        assert (fixed / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"]({png})" in md


def test_one_seed_gives_nan_sem_and_missing_planned_runs_count_as_failures(tmp_path) -> None:
    rows = [row("basic", "m2", t, 0) for t in ("t1", "t3")]
    # a crashed run's folder may hold a graded submission: it still counts as none
    rows.append(row("basic", "m2", "t2", 0, status="crashed", tokens=0, cost_usd=None))
    folder = write_rows(tmp_path / "g", rows)
    plan = [
        {"scaffold": "basic", "model": "m2", "task": t, "seed": 0} for t in ("t1", "t2", "t3", "t4")
    ]
    (folder / "grid.json").write_text(json.dumps({"format_version": 1, "runs": plan}))
    assert report_here(folder, "--no-plots") == 0
    r = table(folder)[("basic", "m2")]
    assert (r["tasks"], r["runs_planned"], r["runs_finished"], r["runs_crashed"]) == (
        "4",
        "4",
        "2",
        "1",
    )
    assert near(r["any_medal_pct_mean"], 50) and r["any_medal_pct_sem"] == "nan"  # t1, t3 of 4
    assert near(r["made_submission_pct_mean"], 50) and near(r["pass@1_pct"], 50)
    assert "pass@2_pct" not in r
    assert "50.0 ± NaN" in (folder / "summary.md").read_text()
    assert not (folder / "any_medal.png").exists()


def test_a_finished_run_missing_from_results_is_rebuilt_from_its_folder(tmp_path) -> None:
    """The grid was killed after the run finished but before its row was appended."""
    folder = write_rows(tmp_path / "g", [row("basic", "m", "t1", 0)])
    run_dir = folder / "runs" / "basic__m__t3__seed0"
    run_dir.mkdir(parents=True)
    spec = {"scaffold": "basic", "model": "m", "task": "t3", "seed": 0}
    (run_dir / "grid_run.json").write_text(json.dumps(spec))
    grade = {"submission_exists": True, "valid_submission": True, "any_medal": True,
             "gold_medal": True, "above_median": True, "normalized_reward": 1.0, "score": 0.99}  # fmt: skip
    record = {"status": "submitted", "started_at": "2025-01-01T00:00:00+00:00",
              "ended_at": "2025-01-01T00:01:40+00:00", "steps": 3, "grade": grade,
              "usage": {"prompt_tokens": 70, "completion_tokens": 30, "cost_usd": None}}  # fmt: skip
    (run_dir / "run.json").write_text(json.dumps(record))
    before = (folder / "results.jsonl").read_text()
    assert report_here(folder, "--no-plots") == 0
    r = table(folder)[("basic", "m")]
    assert near(r["gold_medal_pct_mean"], 100)  # t1 and t3 both gold
    assert r["tokens_total"] == "1100"
    assert (folder / "results.jsonl").read_text() == before  # the report only reads


def test_bad_input_exits_2_with_one_line(tmp_path, capsys) -> None:
    assert report_here(tmp_path) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no results.jsonl" in err
    (tmp_path / "results.jsonl").write_text('{"scaffold": "a"\n{"scaffold": "b"}\n')
    assert report_here(tmp_path) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "results.jsonl:1" in err
    with pytest.raises(SystemExit):
        report_here(tmp_path, "--help")
    assert "example:" in capsys.readouterr().out


def test_pass_at_k_and_sem_edge_cases() -> None:
    assert pass_at_k(5, 0, 3) == 0.0 and pass_at_k(5, 5, 1) == 1.0
    assert pass_at_k(4, 2, 3) == 1.0  # any 3 of 4 include a pass when only 2 fail
    assert math.isclose(pass_at_k(10, 3, 2), 1 - 21 / 45)
    with pytest.raises(ValueError):
        pass_at_k(3, 4, 1)
    with pytest.raises(ValueError):
        pass_at_k(3, 1, 4)
    one = mean_sem([42.0])
    assert one.mean == 42.0 and math.isnan(one.sem)
    assert mean_sem([10.0, 30.0]).sem == pytest.approx(10.0)


def test_known_issues_of_the_competitions_run_are_listed_under_the_tables(tmp_path) -> None:
    """A grid that ran MLE-bench competitions lists each one's known upstream issues (the
    adapter's ``known_issues``, as ``list --known-issues`` shows them) after its tables; a
    competition with none adds no line, and a grid of such competitions has no section."""
    from bench_adapters.registry import list_known_issues

    pizza, titanic = "mlebench/random-acts-of-pizza", "mlebench/spaceship-titanic"
    rows = [
        {**row("aide", "m1", "t1", 0), "task": pizza},
        {**row("aide", "m1", "t1", 1), "task": titanic},
    ]
    folder = write_rows(tmp_path / "g", rows)
    assert report_here(folder, "--no-plots") == 0
    md = (folder / "summary.md").read_text()
    head = "## Known issues of the MLE-bench competitions run"
    assert md.count(head) == 1
    assert md.index(head) > md.index("| aide | `m1` |")  # under the tables
    issues = [text for ref, text in list_known_issues("mlebench") if ref == pizza]
    assert issues and all(f"- `{pizza}`: {text}" in md for text in issues)
    assert f"`{titanic}`:" not in md  # no known issue

    quiet = write_rows(tmp_path / "q", [{**row("aide", "m1", "t1", 0), "task": titanic}])
    assert report_here(quiet, "--no-plots") == 0
    assert head not in (quiet / "summary.md").read_text()
