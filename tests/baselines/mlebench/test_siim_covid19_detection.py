"""siim-covid19-detection's baseline: a smoke run through the real grader (the classifier and
DETR both run), its margin over the sample submission, and rows that rank every class."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from baselines import detr
from baselines.mlebench import siim_covid19_detection as script
from baselines.vision import ARCHITECTURES
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "siim-covid19-detection"
MARGIN = 0.2
"""The smoke baseline's least lead over the sample submission on the fixture (seed 11), in mean
average precision (the sample, "negative" and "none" everywhere, scores about 0.25)."""


@pytest.fixture(scope="module")
def checked(
    tmp_path_factory: pytest.TempPathFactory, mlebench_data: Path, mlebench_checkout: Path
) -> dict[str, Any]:
    return smoke_check(CID, mlebench_data, mlebench_checkout, tmp_path_factory.mktemp(CID))


def test_smoke_run_is_valid_and_beats_the_sample(checked: dict[str, Any]) -> None:
    folder = assert_smoke_check_holds(checked, CID)
    assert margin_over_sample(checked, CID) >= MARGIN
    log = (folder / "log.txt").read_text()
    assert f"model {detr.HUB_ID} (41.5M parameters); weights: random" in log
    sub = pd.read_csv(folder / "submission.csv")
    for row_id, text in zip(sub["id"], sub["PredictionString"], strict=True):
        tokens = text.split()
        assert len(tokens) % 6 == 0
        names = tokens[0::6]
        if row_id.endswith("_study"):
            assert names == list(script.APPEARANCES)
        else:
            assert names[-1] == "none" and set(names[:-1]) <= {"opacity"}


def test_pretrained_none_builds_the_hub_architectures() -> None:
    assert script.HUB_ID in ARCHITECTURES
    assert detr.architecture(1).use_timm_backbone is False
