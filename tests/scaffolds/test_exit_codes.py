"""Every run command's exit code means one thing (``scaffolds.exit_codes``): each code is produced
here by a real run of the command."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from basic_agent import BasicConfig
from scaffolds.entry import main_for
from scaffolds.exit_codes import FAILED_STATUSES, HELP, for_status
from scaffolds.local_llm import free_port

pytestmark = pytest.mark.slow


def scaffold(name: str, *argv: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", f"scaffolds.{name}", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def nowhere() -> str:
    """The base URL of a loopback port nothing listens on."""
    return f"http://127.0.0.1:{free_port()}/v1"


def test_the_table() -> None:
    assert [for_status(s) for s in ("submitted", "time_limit", "step_limit", "cost_limit")] == [
        0,
        0,
        0,
        0,
    ]
    assert for_status("model_exhausted") == 0 and for_status("format_errors") == 0
    assert {for_status(s) for s in FAILED_STATUSES} == {1}
    assert for_status("interrupted") == 130


@pytest.mark.parametrize("name", ["aide", "basic", "iterative", "demo", "ablate"])
def test_help_documents_the_codes(name: str) -> None:
    out = scaffold(name, "--help", timeout=120)
    assert out.returncode == 0
    text = " ".join(out.stdout.split())
    if name == "ablate":
        assert "1 some run crashed or ended in model_error or harness_error" in text
    else:
        assert " ".join(HELP.split()) in text


def test_a_normal_end_exits_0(
    runs_root: Path, write_cassette: Callable[[str, list[dict[str, Any]]], Path]
) -> None:
    cassette = write_cassette("exit-0", [{"content": "I will think about it."}])
    out = scaffold("basic", "--model", f"replay:{cassette}", "--task", "demo/tabular-binary",
                   "--out", str(runs_root / "exit-0"))  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "status=model_exhausted" in out.stdout


def test_a_model_error_exits_1_with_the_reason(runs_root: Path) -> None:
    out = scaffold("iterative", "--model", "openai/none", "--api-base", nowhere(),
                   "--max-attempts", "1", "--task", "demo/tabular-binary",
                   "--out", str(runs_root / "exit-1"))  # fmt: skip
    assert out.returncode == 1, out.stderr
    assert "status=model_error" in out.stdout
    (line,) = out.stderr.strip().splitlines()[-1:]
    assert line.startswith("python -m scaffolds.iterative: model_error: openai/none:")
    record = json.loads((runs_root / "exit-1" / "run.json").read_text())
    assert record["status"] == "model_error" and record["grade"]["valid_submission"] is False


def test_a_harness_error_exits_1(
    runs_root: Path,
    write_cassette: Callable[[str, list[dict[str, Any]]], Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    cassette = write_cassette("exit-1h", [{"content": "hello"}])

    def broken(config: BasicConfig) -> Callable[[Any], str]:
        def scaffold_that_breaks(run: Any) -> str:
            raise RuntimeError("a bug in the scaffold")

        return scaffold_that_breaks

    argv = ["--model", f"replay:{cassette}", "--task", "demo/tabular-binary",
            "--out", str(runs_root / "exit-1h")]  # fmt: skip
    code = main_for("basic", BasicConfig, broken, "d", "e", argv)
    assert code == 1
    assert "harness_error: RuntimeError: a bug in the scaffold" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["--model", "m", "--task", "demo/no-such-task"],
        ["--model", "m", "--task", "demo/tabular-binary", "--steps", "many"],
        ["--task", "demo/tabular-binary"],
    ],
)
def test_bad_input_exits_2_with_one_line(argv: list[str], runs_root: Path) -> None:
    out = scaffold("aide", *argv, "--out", str(runs_root / "exit-2"), timeout=120)
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert not (runs_root / "exit-2" / "run.json").exists()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_an_interrupted_run_exits_130(
    sig: signal.Signals,
    runs_root: Path,
    write_cassette: Callable[[str, list[dict[str, Any]]], Path],
    call: Any,
) -> None:
    cassette = write_cassette("exit-130", [{"tool_calls": [call("bash", command="sleep 120")]}])
    out_dir = runs_root / f"exit-130-{sig.name}"
    process = subprocess.Popen(
        [sys.executable, "-m", "scaffolds.basic", "--model", f"replay:{cassette}",
         "--task", "demo/tabular-binary", "--out", str(out_dir)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    trajectory = out_dir / "trajectory.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if trajectory.exists() and '"kind": "tool_call"' in trajectory.read_text():
            break
        time.sleep(0.1)
    time.sleep(0.5)
    process.send_signal(sig)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert "status=interrupted" in stdout
    assert json.loads((out_dir / "run.json").read_text())["status"] == "interrupted"


def test_the_demo_exits_0_on_a_normal_end_and_1_when_its_model_fails(
    runs_root: Path, write_cassette: Callable[[str, list[dict[str, Any]]], Path]
) -> None:
    """Slow: two demo runs in fresh processes, the second retrying (with its bounded backoff) a
    model server that is not there before it fails."""
    cassette = write_cassette("demo-0", [{"content": "no code today"}])
    ok = scaffold("demo", "--model", f"replay:{cassette}", "--out", str(runs_root / "demo-0"))
    assert ok.returncode == 0, ok.stderr
    assert "status model_exhausted" in ok.stdout and "FAILED" not in ok.stdout

    failed = scaffold("demo", "--model", "openai/none", "--api-base", nowhere(),
                      "--steps", "1", "--out", str(runs_root / "demo-1"))  # fmt: skip
    assert failed.returncode == 1, failed.stderr
    assert "status model_error" in failed.stdout
    assert "FAILED (model_error)" in failed.stdout
    assert "normal end" not in failed.stdout and "expected outcome" not in failed.stdout


@pytest.mark.parametrize(
    "argv",
    [
        ["--time-limit", "soon"],
        ["--model", "replay:/nonexistent/cassette.jsonl"],
        ["--model", "m", "--task", "demo/no-such-task"],
    ],
)
def test_the_demo_exits_2_with_one_line_on_bad_input(argv: list[str], runs_root: Path) -> None:
    out_dir = runs_root / "demo-2"
    out = scaffold("demo", *argv, "--out", str(out_dir), timeout=120)
    assert out.returncode == 2, out.stderr
    (line,) = out.stderr.strip().splitlines()
    assert line.startswith("python -m scaffolds.demo: error: ")
    assert not (out_dir / "run.json").exists()


def test_a_grid_with_a_model_error_run_exits_1_and_names_it(
    runs_root: Path, write_cassette: Callable[[str, list[dict[str, Any]]], Path]
) -> None:
    """Slow: a grid of two real scaffold processes, each starting its kernel and graded, one
    of them failing on a model server that is not there."""
    good = write_cassette("grid-ok", [{"content": "thinking"}])
    grid = runs_root / "grid-exit-1"
    out = subprocess.run(
        [sys.executable, "-m", "scaffolds.ablate", "--scaffolds", "basic",
         "--models", f"replay:{good},openai/none", "--api-base", nowhere(),
         "--scaffold-args=--max-attempts 1", "--tasks", "demo/tabular-binary",
         "--steps", "2", "--out", str(grid), "--no-report"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 1, out.stderr
    (line,) = [x for x in out.stderr.splitlines() if "run(s) failed" in x]
    assert line.startswith("grid: 1 run(s) failed: basic__openai-none")
    assert "(model_error)" in line and "grid-ok" not in line
