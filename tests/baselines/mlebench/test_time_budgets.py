"""Every baseline beyond MLE-bench Lite keeps its time budget: run at smoke size with a budget
already spent when training starts (none at all), a network baseline trains the one step that
times its loop, says the budget stopped its training, and still predicts and writes its
submission; the others (n-gram counts, linear models, smoothing) write theirs in time.

On a CPU this is what can be checked: a full-size run's single step (ConvNeXt at 448 px, a
batch of 32) takes minutes here, so no CPU run of the full settings fits a short budget. The
budgets at full size are for a GPU (``bench/gpu_baselines.py``). Lite's scripts have their own
budget tests (e.g. aerial-cactus-identification's); the CPU-only ones stop LightGBM at the
deadline (tests/baselines/test_kit.py).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from baselines.kit import call_main, takes
from baselines.registry import BASELINES, baseline_module
from bench_adapters.mlebench import split_ids

EARLIER = {f"mlebench/{cid}" for cid in split_ids("lite") + split_ids("cpu_only")}
BEYOND_LITE = [task.removeprefix("mlebench/") for task in BASELINES if task not in EARLIER
               and task.startswith("mlebench/")]  # fmt: skip

BUDGET_S = 0.0
"""Spent before training starts on any machine. A budget of one second was not: on a fast CPU
the small networks trained from scratch ran their whole smoke training (300 steps) in 0.2 s
inside it, printed no budget line and failed the test."""
MARGIN_S = 45.0
"""What reading, the model, one step and the prediction of a smoke run may take on a busy
machine (the parallel phase: two workers on two cores). A script that ignored its budget would
run its smoke steps in full and print no budget line."""
STOPPED = re.compile(
    r"time budget reached at (step|round) [\d,]+|time budget: [\d,]+ of [\d,]+ planned"
)
"""``torchkit.fit``'s lines when the deadline stops training, or shortens its plan."""


@pytest.mark.parametrize("cid", BEYOND_LITE)
def test_a_short_budget_stops_training_and_the_file_is_written(
    cid: str, mlebench_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    public = mlebench_data / cid / "prepared" / "public"
    out = tmp_path / "submission.csv"
    start = time.monotonic()
    script = baseline_module(f"mlebench/{cid}")
    call_main(script, public, out, smoke=True, time_budget_s=BUDGET_S, threads=1, device="cpu",
              pretrained="none")  # fmt: skip
    elapsed = time.monotonic() - start
    log = capsys.readouterr().out
    assert out.is_file() and out.stat().st_size > 0, log
    if "device" in takes(script):  # it trains a network
        assert STOPPED.search(log), log
    assert elapsed < BUDGET_S + MARGIN_S, f"{elapsed:.1f}s\n{log}"
