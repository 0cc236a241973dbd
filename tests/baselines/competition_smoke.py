"""One competition's smoke check, for the baselines outside MLE-bench Lite: each test checks its
own competition (so the parallel runner spreads them over its workers), on the shared
synthetic data and stand-in leaderboards (``mlebench_data``, ``mlebench_checkout``).

``smoke_check`` returns a report in ``lite_check``'s shape, so ``assert_smoke_check_holds``
(tests/baselines/helpers.py) reads it the same way.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from pathlib import Path
from typing import Any

from tests.baselines.helpers import METRIC_LINE, outcomes_of

SCORES = re.compile(r"^score (\S+) vs sample (\S+) \((lower|higher) is better\)")


def smoke_check(cid: str, data: Path, checkout: Path, out: Path) -> dict[str, Any]:
    """``python -m baselines check --tasks <cid> --smoke --pretrained none --device cpu
    --threads 1`` in this process: the report, with ``out`` (its files' folder) added."""
    from baselines.check import CheckOptions, check_task

    options = CheckOptions(
        out_dir=out,
        task_options={"data_dir": data, "mlebench_dir": checkout},
        smoke=True,
        threads=1,
        device="cpu",
        pretrained="none",
    )
    return {"tasks": [asdict(check_task(f"mlebench/{cid}", options))], "out": out}


def margin_over_sample(report: dict[str, Any], cid: str) -> float:
    """How far the baseline's test score is better than the sample's (positive: better), in
    the metric's own units."""
    evidence = outcomes_of(report, cid)[("baseline", "better than the sample")]["evidence"]
    found = SCORES.match(evidence)
    assert found, evidence
    score, sample = float(found[1]), float(found[2])
    return sample - score if found[3] == "lower" else score - sample


def assert_smoke_holds_against_a_nan_sample(report: dict[str, Any], cid: str) -> Path:
    """``assert_smoke_check_holds`` for a competition whose sample upstream scores NaN
    (a constant's correlation): "better than the sample" is skipped with upstream's reason,
    every other expectation holds. Returns the baseline's folder."""
    got = outcomes_of(report, cid)
    beats = got.pop(("baseline", "better than the sample"))
    assert beats["status"] == "skip" and "the sample scores nan" in beats["evidence"], beats
    expected = {
        ("gold", "valid"): "pass",
        ("gold", "gold medal"): "pass",
        ("sample", "valid"): "pass",
        ("sample", "not above median"): "pass",
        ("baseline", "valid"): "pass",
        ("baseline", "above median"): "skip",  # --smoke
        ("missing-column", "invalid, with a message"): "pass",
        ("wrong-row-count", "invalid, with a message"): "pass",
    }
    assert {k: o["status"] for k, o in got.items()} == expected, got
    folder = Path(report["out"]) / f"mlebench-{cid}" / "baseline"
    assert METRIC_LINE.search((folder / "log.txt").read_text()), (folder / "log.txt").read_text()
    return folder


def baseline_score(report: dict[str, Any], cid: str) -> float:
    """The grader's score of the baseline's submission."""
    folder = Path(report["out"]) / f"mlebench-{cid}" / "baseline"
    score: float = json.loads((folder / "grade.json").read_text())["score"]
    return score
