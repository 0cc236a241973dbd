"""Fixtures: synthetic MLE-bench data in upstream's schema, demo tasks, stand-in leaderboards."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench_adapters import resolve_task
from bench_adapters.demo import DEMO_IDS
from bench_adapters.mlebench.synthetic import make_prepared
from tests.baselines.helpers import CPU_ONLY, RunCli, write_checkout

REPO = Path(__file__).resolve().parents[2]


def _run_cli(*args: str, module: str = "baselines") -> subprocess.CompletedProcess[str]:
    """``python -m <module> ARGS`` in a fresh process, output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "COLUMNS": "200"},
        timeout=300,
    )


@pytest.fixture(scope="session")
def run_cli() -> RunCli:
    return _run_cli


@pytest.fixture(scope="session")
def mlebench_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Synthetic prepared data (upstream's schema, small sizes) for the 7 CPU-only competitions."""
    data = tmp_path_factory.mktemp("mlebench-data")
    for cid in CPU_ONLY:
        make_prepared(cid, data, seed=11)
    return data


@pytest.fixture(scope="session")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A demo cache with every demo task generated (each with its synthetic leaderboard)."""
    root = tmp_path_factory.mktemp("demo-cache")
    for task_id in DEMO_IDS:
        resolve_task(f"demo/{task_id}", demo_dir=root)
    return root


@pytest.fixture(scope="session")
def fair_checkout(tmp_path_factory: pytest.TempPathFactory, mlebench_data: Path) -> Path:
    """Leaderboards whose median a sound model beats, for every CPU-only competition."""
    return write_checkout(tmp_path_factory.mktemp("mle-bench-fair"), mlebench_data, CPU_ONLY, 0.25)
