"""nfl-player-contact-detection's baseline: a smoke run on the tracking data through the real
grader, its margin over the sample submission (all 0), and the submission's form."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from baselines.kit import takes
from baselines.mlebench import nfl_player_contact_detection as script
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "nfl-player-contact-detection"
MARGIN = 0.3
"""The smoke baseline's least lead over the sample submission (MCC 0) on the fixture (seed 11);
it scored 0.52."""


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
    assert list(sub.columns) == ["contact_id", "contact"] and sub["contact"].isin([0, 1]).all()
    sample = pd.read_csv(public / "sample_submission.csv")
    assert list(sub["contact_id"]) == list(sample["contact_id"])
    assert 0 < sub["contact"].sum() < len(sub)
    ground = sub["contact_id"].str.endswith("_G")
    assert sub.loc[ground, "contact"].any() and sub.loc[~ground, "contact"].any()


def test_needs_no_gpu_and_no_pretrained_weights() -> None:
    assert not {"device", "pretrained"} & takes(script)
