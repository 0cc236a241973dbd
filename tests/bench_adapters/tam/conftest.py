"""Synthetic TAM data for every Lite task, generated once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench_adapters.tam import TASK_IDS
from bench_adapters.tam.synthetic import make_prepared

REPO = Path(__file__).resolve().parents[3]
TAM_REFERENCE = REPO.parent / "shared" / "reference" / "tam-lite"


@pytest.fixture(scope="session")
def tam_reference() -> Path:
    """The real specs and leaderboards (tests only; the product ships its own copy)."""
    assert TAM_REFERENCE.is_dir(), f"missing shared reference data at {TAM_REFERENCE}"
    return TAM_REFERENCE


@pytest.fixture(scope="session")
def tam_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tam-data")
    for task_id in TASK_IDS:
        make_prepared(task_id, root, seed=7)
    return root


@pytest.fixture
def run_cli_tam(run_cli):  # type: ignore[no-untyped-def]
    """``run_cli_tam(*args)``: ``python -m bench_adapters.tam ARGS`` in a fresh process."""

    def run(*args: str, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
        return run_cli(*args, module="bench_adapters.tam", env=env)

    return run
