"""rsna-miccai-brain-tumor-radiogenomic-classification's baseline: a smoke run on the MRI
series through the real grader, its margin over the sample submission, the submission's form,
and the architecture behind ``--pretrained none``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from baselines.mlebench import rsna_miccai_brain_tumor_radiogenomic_classification as script
from baselines.vision import ARCHITECTURES
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "rsna-miccai-brain-tumor-radiogenomic-classification"
MARGIN = 0.2
"""The smoke baseline's least lead in AUC over the sample submission's 0.5 on the fixture
(seed 11)."""


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
    sub = pd.read_csv(folder / "submission.csv", dtype={"BraTS21ID": str})
    sample = pd.read_csv(public / "sample_submission.csv", dtype={"BraTS21ID": str})
    assert list(sub["BraTS21ID"]) == list(sample["BraTS21ID"])  # zero-padded, as given
    assert sub["MGMT_value"].between(0, 1).all()


def test_pretrained_none_builds_the_hub_architecture() -> None:
    assert script.HUB_ID in ARCHITECTURES
