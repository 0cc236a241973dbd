"""``python -m scaffolds.ablate`` on bad input: exit 2 with one line, before any run starts."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from scaffolds.ablate import main
from scaffolds.grid.plan import RunSpec, safe_part
from tests.machine import require

BASE = ["--scaffolds", "basic", "--models", "replay:x.jsonl", "--tasks", "demo/tabular-binary"]


def fails(capsys, argv: list[str]) -> str:
    """Run the command; it must exit 2 and say why in one line. Returns that line."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1, err
    return err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--scaffolds", "basic,reflexion"], "--scaffolds: unknown scaffold 'reflexion'"),
        (["--split", "lite"], "give exactly one of --tasks and --split"),
        (["--seeds", "0"], "--seeds: must be at least 1"),
        (["--time-limit", "soon"], "--time-limit: not a duration"),
        (["--models", "replay:{model}.jsonl"], "unknown placeholder {model}"),
        (["--ray-address", "auto"], "--ray-address and --ray-cpus need --backend ray"),
        (["--backend", "slurm"], "invalid choice: 'slurm'"),
        (["--tasks", "demo/no-such-task"], "unknown task 'demo/no-such-task'"),
    ],
)
def test_bad_flags_exit_2_with_one_line(capsys, tmp_path, extra, message) -> None:
    err = fails(capsys, [*BASE, "--out", str(tmp_path / "g"), *extra])
    assert message in err
    assert not (tmp_path / "g" / "runs").exists()


def test_unknown_split_is_bad_input(capsys, tmp_path) -> None:
    argv = ["--scaffolds", "basic", "--models", "m", "--split", "huge", "--out", str(tmp_path)]
    assert "unknown split 'huge'" in fails(capsys, argv)


def test_a_second_grid_on_the_same_folder_is_refused(capsys) -> None:
    grid = Path(tempfile.mkdtemp(prefix="ablate-cli-"))
    os.chmod(grid, 0o755)
    fd = os.open(grid / "grid.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)  # as a running grid holds it
    try:
        assert "another grid is already running" in fails(capsys, [*BASE, "--out", str(grid)])
    finally:
        os.close(fd)


def test_a_grid_folder_the_agent_user_cannot_reach_is_refused(capsys, tmp_path) -> None:
    require(os.geteuid() == 0, "agent isolation (and this check) needs root")
    os.chmod(tmp_path, 0o700)
    err = fails(capsys, [*BASE, "--out", str(tmp_path / "g")])
    assert "cannot pass through" in err and str(tmp_path) in err


def test_help_shows_every_flag_and_an_example() -> None:
    cmd = [sys.executable, "-m", "scaffolds.ablate", "--help"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout
    assert "example:\n  python -m scaffolds.ablate --scaffolds aide,basic,iterative" in out
    for flag in ("--models", "--tasks", "--split", "--seeds", "--out", "--time-limit", "--steps",
                 "--workers", "--backend", "--ray-address"):  # fmt: skip
        assert flag in out


def test_run_names_are_safe_and_distinct_whatever_the_model_string() -> None:
    models = [
        "gpt-4o",
        "openai/gpt-4o",
        "openai:gpt-4o",
        "replay:/tmp/a b/c.jsonl",
        "../../etc/passwd",
        "a__b",
        "x" * 300,
        "ü/模型",
        "",
    ]
    names = [RunSpec("basic", m, "mlebench/spaceship-titanic", 2).name for m in models]
    assert len(set(names)) == len(names)
    for name in names:
        assert len(name.encode()) < 255 and "/" not in name and not name.startswith(".")
        assert all(c.isascii() and (c.isalnum() or c in "._-") for c in name)
        assert name.startswith("basic__") and name.endswith("__seed2")
        assert name.count("__") == 3
    assert safe_part("gpt-4o") == "gpt-4o"  # already safe: kept as is
    assert safe_part("openai/gpt-4o").startswith("openai-gpt-4o-")


def test_placeholders_fill_the_model_string_per_run() -> None:
    spec = RunSpec("aide", "replay:c/{scaffold}-{task}-s{seed}.jsonl", "demo/tabular-binary", 1)
    assert spec.model_string() == "replay:c/aide-demo-tabular-binary-s1.jsonl"
    assert spec.name == RunSpec("aide", spec.model, spec.task, 1).name


def test_the_grid_package_never_imports_the_report_that_reads_it() -> None:
    """No import circle: scaffolds.report reads grids; the grid runner only takes its writer."""
    import ast

    import scaffolds.grid

    for module in Path(scaffolds.grid.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            assert not any(n.startswith("scaffolds.report") for n in names), module.name
    done = subprocess.run([sys.executable, "-c", "import scaffolds.report"], capture_output=True)
    assert done.returncode == 0, done.stderr
