"""uw-madison-gi-tract-image-segmentation's baseline: a smoke run through the real grader, its
margin over the sample submission, rows in test.csv's order (the grader pairs them by
position), and the local metric's Hausdorff rules."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from baselines.mlebench import uw_madison_gi_tract_image_segmentation as script
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "uw-madison-gi-tract-image-segmentation"
MARGIN = 0.15
"""The smoke baseline's least lead over the sample submission on the fixture (seed 11), in
0.4 Dice + 0.6 (1 - Hausdorff) (the sample's three corner pixels score about 0.3)."""


@pytest.fixture(scope="module")
def checked(
    tmp_path_factory: pytest.TempPathFactory, mlebench_data: Path, mlebench_checkout: Path
) -> dict[str, Any]:
    return smoke_check(CID, mlebench_data, mlebench_checkout, tmp_path_factory.mktemp(CID))


def test_smoke_run_is_valid_and_beats_the_sample(
    checked: dict[str, Any], mlebench_data: Path
) -> None:
    # upstream pairs rows by position: the sample without its last row is scored
    folder = assert_smoke_check_holds(checked, CID, accepted=("wrong-row-count",))
    assert margin_over_sample(checked, CID) >= MARGIN
    sub = pd.read_csv(folder / "submission.csv", keep_default_na=False)
    test = pd.read_csv(mlebench_data / CID / "prepared" / "public" / "test.csv")
    assert sub[["id", "class"]].equals(test[["id", "class"]])
    assert (sub["predicted"] != "").any() and (sub["predicted"] == "").any()


def test_hausdorff_rules() -> None:
    truth = np.zeros((4, 8, 8), bool)
    truth[1:3, 2:4, 2:4] = True
    assert math.isnan(script.hausdorff(np.zeros_like(truth), np.zeros_like(truth)))
    assert script.hausdorff(np.zeros_like(truth), truth) == 1.0
    assert script.hausdorff(truth, truth) == 0.0
    shifted = np.roll(truth, 4, axis=2)  # four columns over, of a width of 8
    assert script.hausdorff(shifted, truth) == pytest.approx(0.5 / math.sqrt(3))
