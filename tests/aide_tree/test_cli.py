"""``python -m scaffolds.aide``: flags mapped onto the typed config, presets, bad input."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aide_tree import AideConfig
from scaffolds.aide import main


def test_help_lists_the_search_options_with_an_example(capsys: Any) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    out = capsys.readouterr().out
    assert exit_info.value.code == 0
    for flag in (
        "--steps",
        "--time-limit",
        "--exec-timeout",
        "--feedback-model",
        "--preset",
        "--num-drafts",
        "--debug-prob",
        "--max-debug-depth",
        "--resume",
        "--record",
        "--policy",
        "--max-children",
        "--exploration",
        "--backup",
        "--population-size",
        "--selection",
        "--tournament-size",
        "--crossover-prob",
    ):
        assert flag in out
    assert "example:\n  python -m scaffolds.aide --model" in out


def test_defaults_follow_aide_and_the_mlebench_preset_follows_the_paper() -> None:
    aide = AideConfig(model="m", task="t")
    assert (aide.num_drafts, aide.debug_prob, aide.max_debug_depth, aide.steps) == (5, 0.5, 3, 20)
    paper = AideConfig(model="m", task="t", preset="mlebench")
    assert (paper.steps, paper.time_limit, paper.debug_prob) == (500, 86400.0, 1.0)
    assert (paper.max_debug_depth, paper.exec_timeout) == (20, 9 * 3600.0)
    mine = AideConfig(model="m", task="t", preset="mlebench", steps=50, exec_timeout="2h")
    assert (mine.steps, mine.exec_timeout, mine.max_debug_depth) == (50, 7200.0, 20)


def test_bad_input_exits_2_with_one_line(capsys: Any, tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--model", "m", "--task", "demo/tabular-binary", "--debug-prob", "1.5"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("python -m scaffolds.aide: error: --debug-prob") and "\n" not in err

    with pytest.raises(SystemExit) as exit_info:
        main(["--model", "m", "--task", "demo/tabular-binary", "--policy", "beam"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "--policy" in err and "greedy" in err and "\n" not in err

    assert main(["--resume", str(tmp_path / "nothing-here")]) == 2
    assert "cannot resume" in capsys.readouterr().err
    assert main(["--model", "m", "--task", "demo/no-such-task"]) == 2
    assert "unknown task" in capsys.readouterr().err
