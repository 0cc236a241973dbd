"""Reproducibility: the same replay file and seed give the same journal, and a run killed with
SIGKILL and resumed ends with the journal of a run never interrupted."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from aide_tree.cassette import operator_reply, review_call, write_cassette
from scaffolds.aide import main

REPO = Path(__file__).resolve().parents[2]
SAMPLE = 'import shutil\nshutil.copy("data/sample_submission.csv", "submission/submission.csv")\n'
BROKEN = 'import csv\nprint(next(csv.DictReader(open("data/train.csv")))["nope"])\n'
SLOW = "import time\ntime.sleep(2.5)\n" + SAMPLE
STEPS = [  # (code, is_bug, metric) in the order the replay file answers
    (SAMPLE + 'print("auc 0.5")\n', False, 0.5),
    (BROKEN, True, None),
    (SLOW + 'print("auc 0.6")\n', False, 0.6),  # the kill lands here
    (BROKEN, True, None),
    (SAMPLE + 'print("auc 0.55")\n', False, 0.55),
    ('print("auc 0.9")\n', False, 0.9),  # no submission: buggy whatever the review says
    (SAMPLE + 'print("auc 0.7")\n', False, 0.7),
    (SAMPLE + 'print("auc 0.65")\n', False, 0.65),
]
FLAGS = [
    "--task",
    "demo/tabular-binary",
    "--steps",
    str(len(STEPS)),
    "--num-drafts",
    "2",
    "--debug-prob",
    "0.5",
    "--seed",
    "3",
]


def cassette(folder: Path) -> Path:
    records = []
    for i, (code, is_bug, metric) in enumerate(STEPS):
        records += [
            operator_reply(f"Attempt {i}.", code),
            review_call(is_bug, f"Review {i}.", metric),
        ]
    return write_cassette(folder / "cassette.jsonl", records)


def deterministic(run_dir: Path) -> list[dict[str, Any]]:
    """The journal's nodes without what depends on the machine's speed."""
    lines = (run_dir / "journal.jsonl").read_text().splitlines()
    return [{k: v for k, v in json.loads(line).items() if k != "duration_s"} for line in lines[1:]]


@pytest.fixture(scope="module")
def reference(runs_root: Path) -> Path:
    folder = runs_root / "reference"
    folder.mkdir(mode=0o711)
    replay = cassette(folder)
    for name in ("first", "second"):
        assert main(["--model", f"replay:{replay}", "--out", str(folder / name), *FLAGS]) == 0
    return folder


def test_same_replay_and_seed_give_the_same_journal(reference: Path) -> None:
    first, second = deterministic(reference / "first"), deterministic(reference / "second")
    assert first == second
    assert len(first) == len(STEPS)
    operators = {n["operator"] for n in first}
    assert operators == {"draft", "improve", "debug"}  # the seed exercises every operator


def test_a_killed_run_resumes_without_losing_or_rerunning_a_node(
    reference: Path, run_dir: Path
) -> None:
    replay = cassette(run_dir.parent)
    command = [sys.executable, "-m", "scaffolds.aide"]
    proc = subprocess.Popen(
        [*command, "--model", f"replay:{replay}", "--out", str(run_dir), *FLAGS],
        cwd=REPO,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    journal = run_dir / "journal.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if journal.is_file() and len(journal.read_text().splitlines()) >= 3:  # header + 2 nodes
            break
        time.sleep(0.05)
    time.sleep(0.5)  # well into node 2, which sleeps
    assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    killed = deterministic(run_dir)
    assert (
        len(killed) == 2 and json.loads((run_dir / "run.json").read_text())["status"] == "running"
    )

    done = subprocess.run(
        [*command, "--resume", str(run_dir)], cwd=REPO, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "status=step_limit" in done.stdout
    assert deterministic(run_dir) == deterministic(reference / "first")
    assert deterministic(run_dir)[:2] == killed  # the completed nodes were kept, not rerun
    events = [json.loads(line) for line in (run_dir / "trajectory.jsonl").open()]
    assert [e["nodes"] for e in events if e["kind"] == "resume"] == [2]
    assert sum(e["kind"] == "node" for e in events) == len(STEPS)
    summary = json.loads((run_dir / "run.json").read_text())
    reference_summary = json.loads((reference / "first" / "run.json").read_text())
    assert summary["best_node"] == reference_summary["best_node"]
    assert summary["grade"]["score"] == reference_summary["grade"]["score"]
