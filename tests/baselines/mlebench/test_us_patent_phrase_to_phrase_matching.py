"""us-patent-phrase-to-phrase-matching's baseline: a smoke run on the phrase pairs through the real grader (LightGBM and the cross-encoder both run), its correlation (the
sample's constant scores NaN), the submission's form, and the architecture behind ``--pretrained none``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from baselines.mlebench import us_patent_phrase_to_phrase_matching as script
from baselines.text import ARCHITECTURES
from tests.baselines.competition_smoke import (
    assert_smoke_holds_against_a_nan_sample,
    baseline_score,
    smoke_check,
)

CID = "us-patent-phrase-to-phrase-matching"
MARGIN = 0.8
"""The smoke baseline's least Pearson correlation on the fixture (seed 11): the sample's constant
scores NaN, so the margin is over no correlation at all."""


@pytest.fixture(scope="module")
def checked(
    tmp_path_factory: pytest.TempPathFactory, mlebench_data: Path, mlebench_checkout: Path
) -> dict[str, Any]:
    return smoke_check(CID, mlebench_data, mlebench_checkout, tmp_path_factory.mktemp(CID))


def test_smoke_run_is_valid_and_beats_the_sample(
    checked: dict[str, Any], mlebench_data: Path
) -> None:
    public = mlebench_data / CID / "prepared" / "public"
    folder = assert_smoke_holds_against_a_nan_sample(checked, CID)
    assert baseline_score(checked, CID) >= MARGIN
    record = json.loads((folder / "baseline.json").read_text())
    assert record["pretrained"] == "none" and record["device"] == "cpu"
    log = (folder / "log.txt").read_text()
    assert f"model {script.HUB_ID} (" in log and "(--pretrained none)" in log
    assert "transformer" in log and "submitting" in log  # both models were compared
    sub = pd.read_csv(folder / "submission.csv", keep_default_na=False)
    sample = pd.read_csv(public / "sample_submission.csv", keep_default_na=False)
    assert list(sub["id"]) == list(sample["id"])
    assert sub["score"].between(0, 1).all() and sub["score"].std() > 0


def test_pretrained_none_builds_the_hub_architecture() -> None:
    assert script.HUB_ID in ARCHITECTURES and not script.TRANSFORMER_ON_CPU
