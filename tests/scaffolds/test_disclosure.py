"""``python -m scaffolds.report GRID --disclosure``: a real grid of replayed runs (one model
that solves with seed 0 only), its disclosure checked against every run's record, then a
planted record graded before its sandbox closed: listed, left out, exit 1."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scaffolds.grid.results import current_rows

GOOD = """import pandas as pd
from sklearn.linear_model import LogisticRegression
train, test = pd.read_csv('data/train.csv'), pd.read_csv('data/test.csv')
X, y = train.drop(columns=['id', 'target']), train['target']
pred = LogisticRegression(max_iter=1000).fit(X, y).predict_proba(test[X.columns])[:, 1]
pd.DataFrame({'id': test['id'], 'target': pred}).to_csv('submission/submission.csv', index=False)"""
WEAK = "import shutil; shutil.copy('data/sample_submission.csv', 'submission/submission.csv')"


def replies(code: str) -> list[dict[str, Any]]:
    def call(name: str, args: dict[str, Any]) -> dict[str, Any]:
        function = {"name": name, "arguments": json.dumps(args)}
        return {"role": "assistant", "content": None, "model": "provider-model-7b",
                "tool_calls": [{"type": "function", "function": function}]}  # fmt: skip

    return [call("python", {"code": code}), call("answer", {})]


def report(grid: Path, *args: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "scaffolds.report", str(grid), "--no-plots", *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def grid(agent_dir) -> Path:
    root = agent_dir("disclosure-test-")
    for seed, code in ((0, GOOD), (1, WEAK)):
        lines = [json.dumps(r) for r in replies(code)]
        (root / f"mixed-seed{seed}.jsonl").write_text("\n".join(lines) + "\n")
    out = root / "grid"
    argv = [sys.executable, "-m", "scaffolds.ablate", "--scaffolds", "basic",
            "--models", f"replay:{root}/mixed-seed{{seed}}.jsonl", "--tasks",
            "demo/tabular-binary", "--seeds", "2", "--steps", "3", "--time-limit", "5m",
            "--workers", "2", "--out", str(out)]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def test_every_number_of_the_disclosure_matches_the_records(grid: Path) -> None:
    notes = grid.parent / "notes.md"
    notes.write_text("Run on a laptop for the test suite.\n")
    rows = current_rows(grid)
    weak = next(n for n, r in rows.items() if not r["any_medal"])
    monitor = {"flagged": True, "disqualified": False, "plagiarism": {"flagged": True}}
    (grid / rows[weak]["run_dir"] / "monitor.json").write_text(json.dumps(monitor))
    done = report(grid, "--disclosure", "--notes", str(notes))
    assert done.returncode == 0, done.stderr
    data = json.loads((grid / "disclosure.json").read_text())
    text = (grid / "DISCLOSURE.md").read_text()
    rows = current_rows(grid)
    records = {
        n: json.loads((grid / r["run_dir"] / "run.json").read_text()) for n, r in rows.items()
    }
    assert data["integrity"] == {"statement": data["integrity"]["statement"], "runs": 2,
                                 "verified": 2, "excluded": []}  # fmt: skip
    [model] = data["models"]
    assert model["provider_models"] == ["provider-model-7b"]
    assert data["arms"] == ["basic"] and data["settings"]["basic"]["steps"] == [3]
    assert data["seeds"] == {"demo/tabular-binary": [0, 1]} and data["missing_or_failed"] == []
    for run in data["runs"]:
        record = records[run["run"]]
        assert run["integrity"] == "verified" and run["status"] == record["status"] == "submitted"
        assert run["agent_network"] == record["sandbox"]["network"]
        assert run["time_limit_s"] == record["limits"]["time_limit_s"] == 300
        assert run["steps"] == record["steps"] == 2
        assert run["tokens"] == rows[run["run"]]["tokens"]
        cores = record["machine"]["cpu_cores"]
        assert f"{cores} CPU cores" in run["machine"]
    shas = {sha for r in records.values() for sha in r["prompts"].values()}
    assert (
        shas == {s for v in data["prompts"].values() for s in v}
        and "basic/system.md" in data["prompts"]
    )
    # any medal per seed: [100, 0] -> mean 50, SEM std([100, 0], ddof=1) / sqrt(2) = 50
    [demo] = data["headline"]["benchmarks"]["demo"]["all_tasks_run"]
    assert demo["any_medal_pct"] == {"mean": 50.0, "sem": 50.0}
    assert demo["valid_submission_pct"] == {"mean": 100.0, "sem": 0.0}
    assert demo["pass_at_k_pct"] == [50.0, 100.0]  # 1 - C(1,1)/C(2,1); 1 - C(1,2)/C(2,2)
    assert data["headline"]["benchmarks"]["demo"]["splits"]
    for split in data["headline"]["benchmarks"]["demo"]["splits"]:  # one task of several run
        assert split["missing"] and "results" not in split
        assert f"Split `{split['split']}`: covered in part" in text
    assert "50.0 ± 50.0" in text and "Run on a laptop for the test suite." in text
    assert "verified from the records of 2 of 2 run(s)" in text
    assert data["monitor"] == {weak: {"flagged": True, "disqualified": False, "plagiarism": True}}
    assert f"- plagiarism: `{weak}`" in text
    index = subprocess.run([sys.executable, "-m", "scaffolds.view", str(grid)],
                           capture_output=True, text=True, timeout=120)  # fmt: skip
    assert index.returncode == 0, index.stderr
    assert "Disclosure" in (grid / "index.html").read_text()


def test_a_run_graded_before_its_sandbox_closed_is_listed_left_out_and_fails(grid: Path) -> None:
    rows = current_rows(grid)
    winner = next(n for n, r in rows.items() if r["any_medal"])
    path = grid / rows[winner]["run_dir"] / "run.json"
    original = path.read_text()
    record = json.loads(original)
    record["integrity"]["grading_started_at"] = "2000-01-01T00:00:00.000+00:00"
    path.write_text(json.dumps(record))
    try:
        done = report(grid, "--disclosure")
    finally:
        path.write_text(original)
    assert done.returncode == 1 and "1 run(s) left out of the headline" in done.stderr
    data = json.loads((grid / "disclosure.json").read_text())
    [excluded] = data["integrity"]["excluded"]
    assert excluded["run"] == winner and excluded["reason"].startswith("graded at 2000-01-01")
    assert data["integrity"]["verified"] == 1
    [demo] = data["headline"]["benchmarks"]["demo"]["all_tasks_run"]
    assert demo["any_medal_pct"]["mean"] == 0.0  # its medal no longer counts
    assert math.isclose(demo["valid_submission_pct"]["mean"], 50.0)
    assert f"`{winner}`: graded at 2000-01-01" in (grid / "DISCLOSURE.md").read_text()


def test_notes_that_cannot_be_read_are_a_one_line_error(grid: Path) -> None:
    done = report(grid, "--disclosure", "--notes", str(grid / "absent.md"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "cannot read --notes" in done.stderr
