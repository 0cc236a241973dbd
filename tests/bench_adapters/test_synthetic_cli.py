"""``python -m bench_adapters.mlebench.synthetic``: data and stand-in leaderboards in one go."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from bench_adapters import CompetitionTask, resolve_task

MODULE = "bench_adapters.mlebench.synthetic"


def test_writes_prepared_data_and_leaderboards_that_tasks_read(
    run_cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    data, checkout = tmp_path / "data", tmp_path / "mle-bench"
    ids = "leaf-classification,spaceship-titanic"
    args = ["--data-dir", str(data), "--mlebench-dir", str(checkout), "--competitions", ids]
    done = run_cli(*args, module=MODULE)
    assert done.returncode == 0, done.stderr
    assert "leaf-classification: " in done.stdout and "leaderboards: " in done.stdout
    for cid in ids.split(","):
        task = resolve_task(f"mlebench/{cid}", data_dir=data, mlebench_dir=checkout)
        assert isinstance(task, CompetitionTask)
        assert task.leaderboard is not None and task.name == cid.replace("-", " ").title()
        board = pd.read_csv(checkout / "mlebench" / "competitions" / cid / "leaderboard.csv")
        assert len(board) == 150
        sample = task.grade(task.sample_submission_path)
        assert sample["valid_submission"] and not sample["above_median"]

    again = run_cli(*args, module=MODULE)  # data there already: refused, nothing lost
    assert again.returncode == 2 and again.stderr.startswith("error: ")
    assert len(again.stderr.strip().splitlines()) == 1 and "--overwrite" in again.stderr


def test_bad_input_exits_2_with_one_line(
    run_cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    for args in (
        ["--data-dir", str(tmp_path), "--competitions", "no-such-competition"],
        ["--data-dir", str(tmp_path), "--scale", "huge"],
        ["--competitions", "leaf-classification"],
    ):
        done = run_cli(*args, module=MODULE)
        assert done.returncode == 2, args
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, done.stderr)
    assert "python -m bench_adapters.mlebench.synthetic" in run_cli("--help", module=MODULE).stdout


def test_an_existing_checkouts_files_are_kept_unless_overwrite(
    run_cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    """A real mle-bench checkout's leaderboard is never replaced by a stand-in by accident:
    refused before any data is written, with one line naming the file."""
    data, checkout = tmp_path / "data", tmp_path / "mle-bench"
    folder = checkout / "mlebench" / "competitions" / "leaf-classification"
    folder.mkdir(parents=True)
    (folder / "leaderboard.csv").write_text("scoreNullable,teamId\n0.0,1\n")
    args = ["--data-dir", str(data), "--mlebench-dir", str(checkout)]
    args += ["--competitions", "spaceship-titanic,leaf-classification"]

    done = run_cli(*args, module=MODULE)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert str(folder / "leaderboard.csv") in lines[0] and "--overwrite" in lines[0]
    assert (folder / "leaderboard.csv").read_text() == "scoreNullable,teamId\n0.0,1\n"
    assert not data.exists() and not (folder / "config.yaml").exists()

    done = run_cli(*args, "--overwrite", module=MODULE)
    assert done.returncode == 0, done.stderr
    assert len(pd.read_csv(folder / "leaderboard.csv")) == 150
