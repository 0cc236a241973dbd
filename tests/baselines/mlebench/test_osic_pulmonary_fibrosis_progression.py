"""osic-pulmonary-fibrosis-progression's baseline: a smoke run on the DICOM scans and visits
through the real grader, its margin over the sample submission, and the submission's form."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "osic-pulmonary-fibrosis-progression"
MARGIN = 2.0
"""The smoke baseline's least lead over the sample submission on the fixture (seed 11), in
log-likelihood per scored row (it leads by about 5)."""


@pytest.fixture(scope="module")
def checked(
    tmp_path_factory: pytest.TempPathFactory, mlebench_data: Path, mlebench_checkout: Path
) -> dict[str, Any]:
    return smoke_check(CID, mlebench_data, mlebench_checkout, tmp_path_factory.mktemp(CID))


def test_smoke_run_is_valid_and_beats_the_sample(
    checked: dict[str, Any], mlebench_data: Path
) -> None:
    public = mlebench_data / CID / "prepared" / "public"
    folder = assert_smoke_check_holds(checked, CID, accepted=("wrong-row-count",))
    assert margin_over_sample(checked, CID) >= MARGIN
    log = (folder / "log.txt").read_text()
    assert "decoded " in log and " series at 24x128x128" in log
    sub = pd.read_csv(folder / "submission.csv")
    sample = pd.read_csv(public / "sample_submission.csv")
    assert list(sub["Patient_Week"]) == list(sample["Patient_Week"])
    assert np.isfinite(sub["FVC"]).all() and (sub["Confidence"] >= 70).all()
