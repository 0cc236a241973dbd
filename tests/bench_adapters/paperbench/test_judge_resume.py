"""A killed grading resumes from its judge log without asking again, and a repeat is free."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path

from bench_adapters.paperbench.grading import GradingOptions, grade_paper
from tests.bench_adapters.paperbench.judge_helpers import (
    CHANGED,
    REFERENCE,
    REPO,
    REPRODUCE_LOG,
    SUBMISSION,
    Recorder,
    write_paper,
    write_tree,
)

PAPER_ID = "semantic-self-consistency"  # 77 leaves


def grade(requirement: str) -> int:
    return zlib.crc32(requirement.encode()) % 2


CHILD = """
import sys, zlib
from pathlib import Path
from bench_adapters.paperbench.grading import GradingOptions, grade_paper
from tests.bench_adapters.paperbench.judge_helpers import CHANGED, REPRODUCE_LOG, Recorder
root = Path(sys.argv[1])
judge = Recorder(grade=lambda r: zlib.crc32(r.encode()) % 2, delay_s=0.05)
grade_paper(root / "paper", root / "sub", REPRODUCE_LOG, CHANGED,
            GradingOptions(workers=1, judge_log=root / "judge.jsonl"), judge.model)
"""


def test_a_killed_grading_resumes_asking_only_the_rest_and_a_repeat_is_free(tmp_path: Path) -> None:
    rubric = json.loads((REFERENCE / "papers" / PAPER_ID / "rubric.json").read_text())
    write_paper(tmp_path / "paper", rubric)
    write_tree(tmp_path / "sub", SUBMISSION)
    log = tmp_path / "judge.jsonl"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tmp_path)], cwd=REPO, env={**os.environ}
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and child.poll() is None:
        if log.exists() and len(log.read_text().splitlines()) >= 38:
            break
        time.sleep(0.02)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    done_before = len([line for line in log.read_text().splitlines() if line.endswith("}")])
    assert 38 <= done_before < 77, "the grading was not killed mid-way"

    resumed = Recorder(grade=grade)
    options = GradingOptions(workers=4, judge_log=log)
    report = grade_paper(
        tmp_path / "paper", tmp_path / "sub", REPRODUCE_LOG, CHANGED, options, resumed.model
    )
    assert len(resumed.gradings) == 77 - done_before  # only the rest was asked
    assert report["judge"]["leaves_cached"] == done_before
    assert report["judge"]["leaves_invalid"] == 0

    fresh = Recorder(grade=grade)
    baseline = grade_paper(
        tmp_path / "paper", tmp_path / "sub", REPRODUCE_LOG, CHANGED, GradingOptions(), fresh.model
    )
    assert report["score"] == baseline["score"]  # resuming changed no grade

    repeat = Recorder(grade=grade)
    again = grade_paper(
        tmp_path / "paper", tmp_path / "sub", REPRODUCE_LOG, CHANGED, options, repeat.model
    )
    assert not repeat.gradings and again["judge"]["calls"] == 0
    assert again["judge"]["cost_usd"] is None and again["score"] == baseline["score"]
    assert again["judge"]["leaves_cached"] == 77
