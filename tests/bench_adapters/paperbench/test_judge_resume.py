"""A killed grading resumes from its judge log without asking again, and a repeat is free,
also for a submission graded outside any run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from bench_adapters import resolve_task
from bench_adapters.paperbench.grading import GradingOptions, grade_paper
from bench_adapters.paperbench.replication import grade_replication
from bench_adapters.paperbench.task import PaperTask
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
from tests.bench_adapters.paperbench.task_helpers import (
    DEMO,
    git,
    make_repo,
    paper_cache,
    reference_files,
)

__all__ = ["paper_cache"]

PAPER_ID = "semantic-self-consistency"  # 77 leaves


def grade(requirement: str) -> int:
    return zlib.crc32(requirement.encode()) % 2


CHILD = """
import sys, zlib
from pathlib import Path
from bench_adapters.paperbench.grading import GradingOptions, grade_paper
from bench_adapters.paperbench.replication import grade_replication
from bench_adapters.paperbench.task import PaperTask
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


@pytest.mark.slow
def test_grading_outside_a_run_twice_costs_nothing_the_second_time(
    paper_cache: Path, agent_dir: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, scratch = agent_dir("pb-regrade-"), agent_dir("pb-tmp-")
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # where temporary folders land
    folder = make_repo(root / "sub", reference_files())
    git(folder, "bundle", "create", "--quiet", str(root / "sub.bundle"), "--all")
    task = resolve_task(DEMO)
    assert isinstance(task, PaperTask)
    for submission in (folder, root / "sub.bundle"):
        first_judge, second_judge = Recorder(grade=grade), Recorder(grade=grade)
        first = grade_replication(task, submission, model=first_judge.model)
        second = grade_replication(task, submission, model=second_judge.model)
        leaves = first["judge"]["leaves_asked"]
        assert first["graded"] and first["valid_submission"] and leaves == 22
        assert first["reproduction"]["exit_code"] == 0
        assert second_judge.gradings == [] and second["judge"]["calls"] == 0
        assert second["judge"]["leaves_cached"] == leaves and second["judge"]["cost_usd"] is None
        assert second["reproduction"] == first["reproduction"]  # reused, not run again
        assert second["score"] == first["score"]
        work = Path(first["grading_dir"])
        assert second["grading_dir"] == str(work) and work.parent == paper_cache / "grading"
        assert Path(first["reproduction"]["folder"]).is_relative_to(work)
    leftovers = [p for p in scratch.iterdir() if p.name != "scaffolds-sandboxes"]
    assert leftovers == [] and not any(scratch.glob("scaffolds-sandboxes/*"))
