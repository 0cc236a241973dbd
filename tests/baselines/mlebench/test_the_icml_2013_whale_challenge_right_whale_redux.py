"""the-icml-2013-whale-challenge-right-whale-redux's baseline: a smoke run through the real
grader in which both the CPU model (MFCC + LightGBM) and the GPU one (spectrogram CNN) run."""

from __future__ import annotations

from typing import Any

import pandas as pd

from baselines.mlebench import the_icml_2013_whale_challenge_right_whale_redux as script
from baselines.vision import ARCHITECTURES
from tests.baselines.helpers import assert_smoke_check_holds

CID = "the-icml-2013-whale-challenge-right-whale-redux"


def test_smoke_run_is_valid_and_beats_the_sample(lite_check: dict[str, Any]) -> None:
    folder = assert_smoke_check_holds(lite_check, CID)
    sub = pd.read_csv(folder / "submission.csv")
    assert sub["probability"].between(0, 1).all()
    log = (folder / "log.txt").read_text()
    assert "LightGBM:" in log and f"model {script.HUB_ID} (" in log
    assert "mfcc+lightgbm" in log and "cnn" in log


def test_pretrained_none_builds_the_hub_architecture() -> None:
    assert script.HUB_ID in ARCHITECTURES and not script.CNN_ON_CPU
