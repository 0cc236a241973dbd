"""The CLIs' contract: --help with examples, one line and exit 2 on bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from baselines.cli import main
from tests.baselines.helpers import RunCli


def exit_code(argv: list[str]) -> int:
    """``python -m baselines ARGV`` in this process: argparse exits, commands return."""
    try:
        return main(argv)
    except SystemExit as e:
        return int(e.code or 0)


def test_help_shows_examples(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--help"], ["run", "--help"], ["check", "--help"]):
        assert exit_code(argv) == 0
        out = capsys.readouterr().out
        assert "python -m baselines run --task mlebench/spaceship-titanic" in out
        assert "python -m baselines check --split cpu_only" in out


def test_script_help_and_bad_folder(run_cli: RunCli, tmp_path: Path) -> None:
    script = run_cli("--help", module="baselines.mlebench.spaceship_titanic")
    assert script.returncode == 0
    assert "python -m baselines.mlebench.spaceship_titanic --public-dir" in script.stdout
    missing = run_cli("--public-dir", str(tmp_path / "nope"), module="baselines.demo.digits_image")
    assert missing.returncode == 2
    assert missing.stderr.strip().splitlines() == [f"error: no such folder: {tmp_path / 'nope'}"]


def test_bad_input_exits_2_with_one_line(
    run_cli: RunCli, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    empty = str(tmp_path / "empty")
    cases = [
        ["run", "--task", "mlebench/no-such-competition"],
        ["run", "--task", "mlebench/spaceship-titanic", "--data-dir", empty],  # not prepared
        ["run", "--task", "demo/tabular-binary", "--time-budget", "-5"],
        ["run", "--task", "demo/tabular-binary", "--time-budget", "soon"],
        ["run", "--task", "demo/tabular-binary", "--threads", "0"],
        ["run", "--task", "demo/tabular-binary", "--device", "tpu"],
        ["run"],
        ["check"],
        ["check", "--split", "no-such-split"],
        ["check", "--split", "demo", "--tasks", "demo/tabular-binary"],
        ["check", "--tasks", "demo/tabular-binary,mlebench/no-such-competition"],
        ["check", "--tasks", " , "],
    ]
    for argv in cases:
        assert exit_code(argv) == 2, argv
        captured = capsys.readouterr()
        lines = captured.err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (argv, captured.err)
        assert captured.out == "", argv
    # ...and the same from a real process, exit status included.
    result = run_cli("run", "--task", "mlebench/spaceship-titanic", "--data-dir", empty)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("error: mlebench/spaceship-titanic: data not prepared")
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("budget", ["90", "1.5m"])
def test_time_budget_takes_durations(budget: str, demo_dir: Path, tmp_path: Path) -> None:
    argv = ["run", "--task", "demo/tabular-regression", "--smoke", "--time-budget", budget]
    assert exit_code([*argv, "--demo-dir", str(demo_dir), "--out", str(tmp_path)]) == 0
    assert (tmp_path / "submission.csv").is_file() and (tmp_path / "grade.json").is_file()
