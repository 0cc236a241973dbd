"""SIGKILL a running ``python -m scaffolds.basic``, then ``--resume``: no completed step is lost
or done twice, and the run reaches its end."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from basic_agent import committed_history
from scaffolds.record import JsonlLog

STEPS = 8


def trajectory(run_dir: Path) -> list[dict]:
    return list(JsonlLog(run_dir / "trajectory.jsonl").read())


def wait_for_checkpoint(
    run_dir: Path, step: int, process: subprocess.Popen, timeout: float
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, "the run ended before it could be killed"
        path = run_dir / "trajectory.jsonl"
        if path.exists() and any(
            e["kind"] == "checkpoint" and e["step"] >= step for e in trajectory(run_dir)
        ):
            return
        time.sleep(0.05)
    raise AssertionError(f"no checkpoint of step {step} within {timeout}s")


def test_sigkill_then_resume_loses_no_completed_step(runs_root, write_cassette, call) -> None:
    sleeps = [
        {"tool_calls": [call("python", code=f"import time; time.sleep(0.4); print('step-{k}')")]}
        for k in range(1, STEPS + 1)
    ]
    copy = "cp data/sample_submission.csv submission/submission.csv"
    cassette = write_cassette(
        "resume",
        [*sleeps, {"tool_calls": [call("bash", command=copy)]}, {"tool_calls": [call("answer")]}],
    )
    run_dir = runs_root / "killed"
    command = [sys.executable, "-m", "scaffolds.basic", "--model", f"replay:{cassette}"]
    first = subprocess.Popen(
        [*command, "--task", "demo/tabular-binary", "--out", str(run_dir)],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_checkpoint(run_dir, 3, first, timeout=90)
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()
    done_before, steps_before = committed_history(trajectory(run_dir))
    assert 3 <= steps_before < STEPS

    resumed = subprocess.run(
        [*command, "--resume", str(run_dir)], capture_output=True, text=True, timeout=120
    )
    assert resumed.returncode == 0, resumed.stderr
    assert "status=submitted" in resumed.stdout
    summary = json.loads((run_dir / "run.json").read_text())
    assert summary["status"] == "submitted" and summary["steps"] == STEPS + 2
    assert summary["grade"]["valid_submission"]

    events = trajectory(run_dir)
    outputs = [e["text"] for e in events if e["kind"] == "observation"]
    for k in range(1, steps_before + 1):  # completed before the kill: recorded exactly once
        assert sum(t.startswith(f"step-{k}\n") for t in outputs) == 1
    history, steps = committed_history(events)
    assert steps == STEPS + 2
    results = [m["content"] for m in history if m["role"] == "tool"]
    assert [r.split("\n")[0] for r in results[:STEPS]] == [f"step-{k}" for k in range(1, STEPS + 1)]
    assert history[: len(done_before)] == done_before
    notes = [m["content"] for m in history if m["role"] == "user"][1:]
    assert len(notes) == 1 and "kernel was restarted" in notes[0]
    assert [e["resumed"] for e in events if e["kind"] == "start"] == [False, True]


def test_a_run_killed_after_its_answer_was_accepted_resumes_to_its_end(
    runs_root, write_cassette, call
) -> None:
    """The kill lands between the answer's checkpoint and the end of the run (the disk as a
    SIGKILL there leaves it): the resumed run asks the model nothing and ends submitted."""
    copy = "cp data/sample_submission.csv submission/submission.csv"
    cassette = write_cassette(
        "answered", [{"tool_calls": [call("bash", command=copy)]}, {"tool_calls": [call("answer")]}]
    )
    run_dir = runs_root / "answered"
    command = [sys.executable, "-m", "scaffolds.basic", "--model", f"replay:{cassette}"]
    first = subprocess.run(
        [*command, "--task", "demo/tabular-binary", "--steps", "2", "--out", str(run_dir)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert "status=submitted" in first.stdout, first.stderr
    events = trajectory(run_dir)
    last = max(i for i, e in enumerate(events) if e["kind"] == "checkpoint")
    assert events[last]["step"] == 2
    lines = (run_dir / "trajectory.jsonl").read_text().splitlines(keepends=True)
    (run_dir / "trajectory.jsonl").write_text("".join(lines[: last + 1]))
    summary = json.loads((run_dir / "run.json").read_text())
    summary.update(status="running", error=None, grade=None)
    (run_dir / "run.json").write_text(json.dumps(summary))
    (run_dir / "grade.json").unlink()

    resumed = subprocess.run(
        [*command, "--resume", str(run_dir)], capture_output=True, text=True, timeout=120
    )
    assert resumed.returncode == 0, resumed.stderr
    assert "status=submitted" in resumed.stdout, resumed.stdout + resumed.stderr
    summary = json.loads((run_dir / "run.json").read_text())
    assert summary["status"] == "submitted" and summary["steps"] == 2
    assert summary["grade"]["valid_submission"]
    after = trajectory(run_dir)[last + 1 :]
    assert [e["kind"] for e in after if e["kind"] in ("model_call", "message")] == []
