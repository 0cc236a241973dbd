"""The import-layers contract (``tests/layers.py``, run by ``make check``): it holds on the
product as it is, and fails on a copy where a forbidden import or benchmark name is planted."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.layers import PACKAGES, check

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def product(tmp_path: Path) -> Path:
    """A copy of the product's packages (sources only) to plant breaches in."""
    for package in PACKAGES:
        shutil.copytree(REPO / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.md", "*.json",
                                                      "*.csv", "*.txt", "*.html", "*.js"))  # fmt: skip
    return tmp_path


def plant(root: Path, relative: str, code: str) -> None:
    path = root / relative
    path.write_text(path.read_text(encoding="utf-8") + "\n" + code + "\n", encoding="utf-8")


def test_the_product_keeps_the_contract() -> None:
    assert [str(b) for b in check(REPO)] == []


def test_the_command_fails_on_an_import_from_a_layer_above(product: Path) -> None:
    plant(product, "tools/bash.py", "from scaffolds.runtime import Run")
    done = subprocess.run([sys.executable, "-m", "tests.layers", str(product)], cwd=REPO,
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert "tools/bash.py:" in done.stdout and "imports scaffolds.runtime (layer 4)" in done.stdout
    assert "1 breach(es)" in done.stderr


def test_a_core_module_may_not_reach_the_agents_even_inside_a_function(product: Path) -> None:
    plant(product, "scaffolds/budget.py", "def _late() -> None:\n    import aide_tree.agent\n")
    [breach] = check(product)
    assert (
        breach.path == "scaffolds/budget.py" and "imports aide_tree.agent (layer 5)" in breach.what
    )


def test_generic_code_may_not_import_a_benchmark_or_compare_against_its_name(
    product: Path,
) -> None:
    plant(product, "scaffolds/runtime.py", "from bench_adapters.paperbench import splits")
    plant(product, "aide_tree/journal.py",
          "def paper(task_id: str) -> bool:\n    return task_id.startswith('paperbench/')")  # fmt: skip
    plant(
        product,
        "basic_agent/history.py",
        "def lite(split: str) -> bool:\n    return split == 'tam'",
    )
    found = {(b.path, b.what) for b in check(product)}
    assert found == {
        ("scaffolds/runtime.py", "imports the benchmark module bench_adapters.paperbench"),
        ("scaffolds/runtime.py", "imports the benchmark module bench_adapters.paperbench.splits"),
        ("aide_tree/journal.py", "compares against the benchmark 'paperbench/'"),
        ("basic_agent/history.py", "compares against the benchmark 'tam'"),
    }


def test_a_new_module_outside_every_layer_is_a_breach(product: Path) -> None:
    (product / "scaffolds" / "newthing.py").write_text('"""Not placed yet."""\n')
    [breach] = check(product)
    assert breach.path == "scaffolds/newthing.py" and "in no layer" in breach.what


def test_an_adapter_may_use_the_core_and_tools_but_not_run_assembly(product: Path) -> None:
    plant(
        product,
        "bench_adapters/registry.py",
        "from tools.keep import keep_tree\nfrom scaffolds.budget import Budget",
    )
    assert check(product) == []
    plant(product, "bench_adapters/registry.py", "from scaffolds.runtime import Run")
    [breach] = check(product)
    assert "imports scaffolds.runtime (layer 4), a layer above" in breach.what


def test_a_declared_ability_may_not_be_probed_with_getattr(product: Path) -> None:
    plant(product, "scaffolds/runtime.py",
          "def note(task: object) -> object:\n    return getattr(task, 'progress_note', None)")  # fmt: skip
    plant(product, "aide_tree/journal.py",
          "def private(task: object) -> bool:\n    return hasattr(task, 'private_paths')")  # fmt: skip
    plant(product, "bench_adapters/report.py",
          "def splits(adapter: object) -> object:\n    return getattr(adapter, 'splits', list)()")  # fmt: skip
    found = {(b.path, b.what.split(":")[0], b.what.split("declared by ")[-1].split(",")[0])
             for b in check(product)}  # fmt: skip
    assert found == {
        (
            "scaffolds/runtime.py",
            "probes 'progress_note' with getattr/hasattr",
            "GivesProgressNotes",
        ),
        ("aide_tree/journal.py", "probes 'private_paths' with getattr/hasattr", "HasPrivateFiles"),
        ("bench_adapters/report.py", "probes 'splits' with getattr/hasattr", "Benchmark"),
    }
    # a benchmark's own folder may probe its own objects (an optional field of a grader spec)
    plant(product, "bench_adapters/mlebench/adapter.py", "X = getattr(object(), 'splits', None)")
    assert len(check(product)) == 3
