"""predict-volcanic-eruptions-ingv-oe's baseline: a smoke run of LightGBM on segment
statistics through the real grader, its margin over the sample submission, and the
submission's form."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from baselines.kit import takes
from baselines.mlebench import predict_volcanic_eruptions_ingv_oe as script
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "predict-volcanic-eruptions-ingv-oe"
MARGIN = 10_000_000
"""The smoke baseline's least lead over the sample submission on the fixture (seed 11), in
the metric's units: it scored an MAE of 4.7M against the sample's (all zeros) 22.0M."""


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
    assert list(sub.columns) == ["segment_id", "time_to_eruption"]
    assert np.isfinite(sub["time_to_eruption"]).all()
    sample = pd.read_csv(public / "sample_submission.csv")
    assert list(sub["segment_id"]) == list(sample["segment_id"])


def test_needs_no_gpu_and_no_pretrained_weights() -> None:
    assert not {"device", "pretrained"} & takes(script)
