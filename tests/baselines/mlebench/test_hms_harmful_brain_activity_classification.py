"""hms-harmful-brain-activity-classification's baseline: a smoke run on the EEG recordings
through the real grader, its margin over the sample submission (1/6 each), and the
submission's form: a distribution over the six kinds for every row of the sample."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from baselines.kit import takes
from baselines.mlebench import hms_harmful_brain_activity_classification as script
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "hms-harmful-brain-activity-classification"
MARGIN = 0.3
"""The smoke baseline's least lead over the sample submission (KL 1.36) on the fixture
(seed 11); it scored 0.76."""


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
    sub = pd.read_csv(folder / "submission.csv")
    sample = pd.read_csv(public / "sample_submission.csv")
    assert list(sub.columns) == list(sample.columns) and sub["eeg_id"].equals(sample["eeg_id"])
    assert np.allclose(sub[script.TARGETS].sum(axis=1), 1) and (sub[script.TARGETS] > 0).all().all()
    assert (sub.groupby("eeg_id")[script.TARGETS].nunique() == 1).all().all()  # one per EEG


def test_trains_a_network_from_scratch() -> None:
    assert "device" in takes(script) and "pretrained" not in takes(script)
