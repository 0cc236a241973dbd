"""``make demo`` (``python -m scaffolds.demo``) on the bundled local model: a normal end says so
and exits 0; a server that dies mid-run makes the demo fail, say why, and exit 1."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.local_model, pytest.mark.slow]


def children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def server_of(demo_pid: int) -> int | None:
    for child in children(demo_pid):
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"llama_cpp.server" in cmdline:
            return child
    return None


def demo(out: Path, *argv: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "scaffolds.demo", "--out", str(out), *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_the_demo_ends_normally_with_the_bundled_model(runs_root: Path) -> None:
    """Slow: ``make demo`` as a user runs it: a fresh process starts its own local model server
    and runs AIDE on it, a 135M model on the CPU."""
    out = runs_root / "demo-local"
    process = demo(out, "--steps", "1", "--time-limit", "2m")
    stdout, stderr = process.communicate(timeout=400)
    status = json.loads((out / "run.json").read_text())["status"]
    assert process.returncode == 0, (status, stdout, stderr)
    assert status in ("step_limit", "time_limit", "submitted")
    assert f"record: {out / 'run.json'}" in stdout and (out / "tree.html").is_file()
    assert "normal end" in stdout and "FAILED" not in stdout


def test_a_bundled_server_that_dies_fails_the_demo_with_the_reason(runs_root: Path) -> None:
    """Slow: ``make demo`` with its own local model server, run until the server is killed."""
    out = runs_root / "demo-killed"
    process = demo(out, "--steps", "3")
    assert process.stdout is not None
    for line in process.stdout:  # the server is up once the search starts
        if line.startswith("AIDE on "):
            break
    deadline = time.monotonic() + 30
    while (pid := server_of(process.pid)) is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert pid is not None, "no llama.cpp server under the demo"
    os.kill(pid, signal.SIGILL)  # what a build with instructions this CPU lacks dies of
    rest, stderr = process.communicate(timeout=300)
    assert process.returncode == 1, (rest, stderr)
    assert "FAILED (model_error): local model server died (SIGILL, illegal instruction" in rest
    assert "python -m scaffolds.local_llm --check" in rest
    assert "normal end" not in rest
    assert json.loads((out / "run.json").read_text())["status"] == "model_error"
