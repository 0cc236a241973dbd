"""Shared fixtures: demo tasks, synthetic MLE-bench data and a stand-in upstream checkout."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from bench_adapters import resolve_task
from bench_adapters.demo import DEMO_IDS
from bench_adapters.mlebench import split_ids
from bench_adapters.mlebench.synthetic import answers_as_submission, make_prepared

REPO = Path(__file__).resolve().parents[2]
REFERENCE = REPO.parent / "shared" / "reference"


def _run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m bench_adapters ARGS`` in a fresh process, output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "bench_adapters", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, **(env or {})},
        timeout=120,
    )


@pytest.fixture(scope="session")
def run_cli():  # type: ignore[no-untyped-def]
    """``run_cli(*args, env=...)``: the CLI in a fresh process."""
    return _run_cli


@pytest.fixture(scope="session")
def reference() -> Path:
    """The shared reference data (real leaderboards, split lists); tests only, never the product."""
    assert REFERENCE.is_dir(), f"missing shared reference data at {REFERENCE}"
    return REFERENCE


@pytest.fixture(scope="session")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A demo cache with all demo tasks generated."""
    root = tmp_path_factory.mktemp("demo-cache")
    for task_id in DEMO_IDS:
        resolve_task(f"demo/{task_id}", demo_dir=root)
    return root


@pytest.fixture(scope="session")
def mlebench_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Synthetic prepared data (upstream schema) for the 7 CPU-only competitions."""
    data = tmp_path_factory.mktemp("mlebench-data")
    for cid in split_ids("cpu_only"):
        make_prepared(cid, data, seed=3)
    return data


@pytest.fixture(scope="session")
def checkout(tmp_path_factory: pytest.TempPathFactory, mlebench_data: Path) -> Path:
    """A stand-in mle-bench checkout: config, description and a 150-team leaderboard per
    CPU-only competition, spread between the gold and the sample submission's scores."""
    root = tmp_path_factory.mktemp("mle-bench")
    for cid in split_ids("cpu_only"):
        task = resolve_task(f"mlebench/{cid}", data_dir=mlebench_data)
        gold = answers_as_submission(cid, mlebench_data)
        gold_path = root / f"{cid}-gold.csv"
        gold.to_csv(gold_path, index=False)
        best, worst = (
            task.grade(gold_path)["score"],
            task.grade(task.sample_submission_path)["score"],
        )
        step = (worst - best) / 149
        scores = [round(best + step * i, 5) for i in range(150)]
        comp = root / "mlebench" / "competitions" / cid
        comp.mkdir(parents=True)
        pd.DataFrame(
            {
                "scoreNullable": scores,
                "teamId": range(150),
                "hasTeamName": True,
                "submissionDate": "2024-01-01 00:00:00",
                "score": scores,
                "hasScore": True,
            }
        ).to_csv(comp / "leaderboard.csv", index=False)
        title = cid.replace("-", " ").title()
        (comp / "config.yaml").write_text(f"id: {cid}\nname: {title}\n", encoding="utf-8")
        (comp / "description.md").write_text(
            f"# {title}\n\nA Kaggle competition: see https://www.kaggle.com/c/{cid}.\n"
            f"Welcome to {title}! Predict the target.\n",
            encoding="utf-8",
        )
    return root


@pytest.fixture(scope="session")
def gold_paths(checkout: Path) -> dict[str, Path]:
    return {cid: checkout / f"{cid}-gold.csv" for cid in split_ids("cpu_only")}
