"""vesuvius-challenge-ink-detection's baseline: a smoke run through the real grader, its margin
over the sample submission, and ink encoded left to right at the mask's size."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from PIL import Image

from rlecodec import decode
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "vesuvius-challenge-ink-detection"
MARGIN = 0.2
"""The smoke baseline's least lead over the sample submission (which scores 0) on the fixture
(seed 11), in F0.5."""


@pytest.fixture(scope="module")
def checked(
    tmp_path_factory: pytest.TempPathFactory, mlebench_data: Path, mlebench_checkout: Path
) -> dict[str, Any]:
    return smoke_check(CID, mlebench_data, mlebench_checkout, tmp_path_factory.mktemp(CID))


def test_smoke_run_is_valid_and_beats_the_sample(
    checked: dict[str, Any], mlebench_data: Path
) -> None:
    folder = assert_smoke_check_holds(checked, CID)
    assert margin_over_sample(checked, CID) >= MARGIN
    sub = pd.read_csv(folder / "submission.csv", dtype=str, keep_default_na=False)
    assert sub["Id"].tolist() == ["a"]
    papyrus = np.asarray(Image.open(mlebench_data / CID / "prepared/public/test/a/mask.png")) > 0
    ink = decode(sub["Predicted"].iloc[0], *papyrus.shape, "row")
    assert ink.any() and not (ink & ~papyrus).any()  # ink found, and only on the papyrus
