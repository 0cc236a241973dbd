"""seti-breakthrough-listen's baseline: a smoke run on the radio cadences through the real grader,
its margin over the sample submission, the submission's form, the picture a cadence becomes, and
the architecture behind ``--pretrained none``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from baselines.mlebench import seti_breakthrough_listen as script
from baselines.vision import ARCHITECTURES
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "seti-breakthrough-listen"
MARGIN = 0.3
"""The smoke baseline's least lead over the sample submission on the fixture (seed 11)."""


@pytest.fixture(scope="module")
def checked(
    tmp_path_factory: pytest.TempPathFactory, mlebench_data: Path, mlebench_checkout: Path
) -> dict[str, Any]:
    return smoke_check(CID, mlebench_data, mlebench_checkout, tmp_path_factory.mktemp(CID))


def test_smoke_run_is_valid_and_beats_the_sample(
    checked: dict[str, Any], mlebench_data: Path
) -> None:
    public = mlebench_data / CID / "prepared" / "public"
    folder = assert_smoke_check_holds(checked, CID)
    assert margin_over_sample(checked, CID) >= MARGIN
    record = json.loads((folder / "baseline.json").read_text())
    assert record["pretrained"] == "none" and record["device"] == "cpu"
    log = (folder / "log.txt").read_text()
    assert f"model {script.HUB_ID} (" in log and "weights: random (--pretrained none)" in log
    sub = pd.read_csv(folder / "submission.csv")
    assert sub["target"].between(0, 1).all()
    sample = pd.read_csv(public / "sample_submission.csv", dtype={"id": str})
    assert list(sub["id"].astype(str)) == list(sample["id"])


def test_a_line_only_on_target_shows_in_the_difference_channel() -> None:
    cadence = np.random.default_rng(0).normal(1, 0.1, (6, 16, 8)).astype(np.float16)
    cadence[0::2, :, 3] += 2  # on target only
    cadence[:, :, 6] += 2  # interference in every observation
    picture = script.picture(cadence, 8).astype(int)
    column = picture[:, :, 2].mean(axis=0)
    assert picture.shape == (8, 8, 3) and column.argmax() == 3


def test_pretrained_none_builds_the_hub_architecture() -> None:
    assert script.HUB_ID in ARCHITECTURES
