"""rsna-2022-cervical-spine-fracture-detection's baseline: a smoke run on the CT studies through
the real grader, its margin over the sample submission, the submission's form (eight rows a
study), and the architecture behind ``--pretrained none``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from baselines.mlebench import rsna_2022_cervical_spine_fracture_detection as script
from baselines.vision import ARCHITECTURES
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "rsna-2022-cervical-spine-fracture-detection"
MARGIN = 0.05
"""The smoke baseline's least lead in weighted log loss over the sample submission's 0.5
everywhere (0.693) on the fixture (seed 11)."""


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
    assert list(sub["row_id"]) == list(pd.read_csv(public / "test.csv")["row_id"])
    assert sub["fractured"].between(0, 1).all()


def test_pretrained_none_builds_the_hub_architecture() -> None:
    assert script.HUB_ID in ARCHITECTURES
