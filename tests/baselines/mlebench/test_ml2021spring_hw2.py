"""ml2021spring-hw2's baseline: a smoke run of the frame MLP through the real grader, its
margin over the sample submission, and the submission's form."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from baselines.kit import takes
from baselines.mlebench import ml2021spring_hw2 as script
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "ml2021spring-hw2"
MARGIN = 0.5
"""The smoke baseline's least lead over the sample submission on the fixture (seed 11): it
scored 0.774 accuracy against the sample's 0.006."""


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
    assert json.loads((folder / "baseline.json").read_text())["device"] == "cpu"
    sub = pd.read_csv(folder / "submission.csv")
    assert list(sub.columns) == ["Id", "ClassId"] and sub["ClassId"].isin(range(39)).all()
    assert list(sub["Id"]) == list(pd.read_csv(public / "sampleSubmission.csv")["Id"])


def test_trains_a_network_without_pretrained_weights() -> None:
    assert "device" in takes(script) and "pretrained" not in takes(script)
