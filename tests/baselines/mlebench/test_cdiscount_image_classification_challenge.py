"""cdiscount-image-classification-challenge's baseline: a smoke run on the BSON files through the
real grader, its margin over the sample submission, the submission's form, and the
architecture behind ``--pretrained none``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from baselines.mlebench import cdiscount_image_classification_challenge as script
from baselines.vision import ARCHITECTURES
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "cdiscount-image-classification-challenge"
MARGIN = 0.2
"""The smoke baseline's least lead in accuracy over the sample submission (one category for
every product) on the fixture (seed 11)."""


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
    categories = set(pd.read_csv(public / "category_names.csv")["category_id"])
    assert set(sub["category_id"]) <= categories
    assert sorted(sub["_id"]) == sorted(pd.read_csv(public / "sample_submission.csv")["_id"])


def test_pretrained_none_builds_the_hub_architecture() -> None:
    assert script.HUB_ID in ARCHITECTURES
