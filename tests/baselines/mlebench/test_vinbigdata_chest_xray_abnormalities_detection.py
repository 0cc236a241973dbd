"""vinbigdata-chest-xray-abnormalities-detection's baseline: a smoke run through the real grader
(the classifier and CenterNet both run), its margin over the sample submission, "No finding"
on every image, and the readers' boxes merged into one per finding."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from baselines.mlebench import vinbigdata_chest_xray_abnormalities_detection as script
from baselines.vision import ARCHITECTURES
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "vinbigdata-chest-xray-abnormalities-detection"
MARGIN = 0.05
"""The smoke baseline's least lead over the sample submission on the fixture (seed 11), in COCO
mAP at IoU 0.4: the sample's "No finding" everywhere already scores that class almost
perfectly, so only boxes of real findings beat it."""


@pytest.fixture(scope="module")
def checked(
    tmp_path_factory: pytest.TempPathFactory, mlebench_data: Path, mlebench_checkout: Path
) -> dict[str, Any]:
    return smoke_check(CID, mlebench_data, mlebench_checkout, tmp_path_factory.mktemp(CID))


def test_smoke_run_is_valid_and_beats_the_sample(checked: dict[str, Any]) -> None:
    folder = assert_smoke_check_holds(checked, CID)
    assert margin_over_sample(checked, CID) >= MARGIN
    sub = pd.read_csv(folder / "submission.csv")
    for text in sub["PredictionString"]:
        tokens = np.array(text.split()).reshape(-1, 6)
        assert tokens[-1, 0] == "14" and tokens[-1, 2:].astype(float).tolist() == [0, 0, 1, 1]
        assert set(tokens[:-1, 0].astype(int)) <= set(range(14))


def test_readers_boxes_of_a_finding_are_merged() -> None:
    readings = pd.DataFrame(
        {
            "class_id": [3, 3, 3, 0, 14],
            "x_min": [10.0, 12.0, 60.0, 5.0, np.nan],
            "y_min": [10.0, 11.0, 60.0, 5.0, np.nan],
            "x_max": [30.0, 31.0, 70.0, 9.0, np.nan],
            "y_max": [30.0, 29.0, 70.0, 9.0, np.nan],
        }
    )
    boxes, classes = script.consensus(readings)
    assert sorted(classes.tolist()) == [0, 3, 3]  # two readers' overlapping boxes are one
    merged = boxes[(classes == 3) & (boxes[:, 0] < 50)]
    assert merged.tolist() == [[11.0, 10.5, 30.5, 29.5]]


def test_pretrained_none_builds_the_hub_architectures() -> None:
    assert {script.HUB_ID, script.DETECTOR_HUB_ID} <= set(ARCHITECTURES)
