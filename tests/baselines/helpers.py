"""Helpers the baseline tests share: the CPU-only ids, a CLI runner type, stand-in leaderboards,
and the expectations of the Lite smoke check."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_adapters.mlebench import split_ids
from bench_adapters.mlebench.synthetic.leaderboards import write_checkout

CPU_ONLY = split_ids("cpu_only")

RunCli = Callable[..., subprocess.CompletedProcess[str]]
METRIC_LINE = re.compile(r"^val ([\w.@-]+) (-?\d+\.\d{5}) \(.+\)$", re.MULTILINE)
"""The fixed-format validation metric line every baseline prints."""

__all__ = ["CPU_ONLY", "METRIC_LINE", "RunCli", "write_checkout"]


def outcomes_of(report: dict[str, Any], cid: str) -> dict[tuple[str, str], dict[str, Any]]:
    """One task's check outcomes, by (submission, expectation)."""
    (task,) = [t for t in report["tasks"] if t["task"] == f"mlebench/{cid}"]
    assert task["status"] == "checked", task["reason"]
    return {(o["submission"], o["expectation"]): o for o in task["outcomes"]}


def assert_smoke_check_holds(
    report: dict[str, Any], cid: str, accepted: tuple[str, ...] = ()
) -> Path:
    """The smoke check of one Lite competition: the answers are valid and win gold, the sample
    is valid and not above the median, the smoke baseline is valid, better than the sample
    and reports its metric line, the corrupted copies are rejected (those named in
    ``accepted`` are scored, as upstream scores them: the grader's ``CHECK_NOTES``). Returns
    the baseline's folder (submission.csv, grade.json, log.txt)."""
    got = outcomes_of(report, cid)
    expected = {
        ("gold", "valid"): "pass",
        ("gold", "gold medal"): "pass",
        ("sample", "valid"): "pass",
        ("sample", "not above median"): "pass",
        ("baseline", "valid"): "pass",
        ("baseline", "better than the sample"): "pass",
        ("baseline", "above median"): "skip",  # --smoke
        ("missing-column", "invalid, with a message"): "pass",
        ("wrong-row-count", "invalid, with a message"): "pass",
    }
    for name in accepted:
        del expected[(name, "invalid, with a message")]
        expected[(name, "valid, as upstream")] = "pass"
    assert {k: o["status"] for k, o in got.items()} == expected, got
    folder = Path(report["out"]) / f"mlebench-{cid}" / "baseline"
    assert METRIC_LINE.search((folder / "log.txt").read_text()), (folder / "log.txt").read_text()
    return folder
