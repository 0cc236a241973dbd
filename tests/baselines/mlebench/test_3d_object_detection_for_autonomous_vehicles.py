"""3d-object-detection-for-autonomous-vehicles' baseline: a smoke run through the real grader,
its margin over the sample submission, boxes of the competition's classes in the world frame,
and the local metric's rules."""

from __future__ import annotations

import importlib
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from baselines.kit import takes
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "3d-object-detection-for-autonomous-vehicles"
script = importlib.import_module("baselines.mlebench.3d_object_detection_for_autonomous_vehicles")
MARGIN = 0.005
"""The smoke baseline's least lead over the sample submission (blank, which scores 0) on the
fixture (seed 11), in mean 3D mAP over IoU 0.5 to 0.95: 100 steps from random weights on 64
points a sweep place some cars well enough."""


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
    sub = pd.read_csv(folder / "submission.csv", keep_default_na=False)
    answers = pd.read_csv(mlebench_data / CID / "prepared" / "private" / "test.csv")
    centres = np.array([t.split()[1:3] for t in answers["PredictionString"]], float)
    for text in sub["PredictionString"]:
        tokens = np.array(text.split()).reshape(-1, 9)
        assert set(tokens[:, 8]) <= set(script.CLASSES)
        xy = tokens[:, 1:3].astype(float)  # world coordinates, near the test scenes' boxes
        assert np.abs(xy[:, None] - centres[None]).sum(-1).min(1).max() < 200


def test_sample_map_counts_a_box_only_above_each_threshold() -> None:
    car = np.array([[0.0, 0.0, 0.85, 1.9, 4.8, 1.7, 0.0]])  # length along x, width along y
    truth = (car, np.array([0]))

    def score(boxes: np.ndarray) -> float:
        return float(script.sample_map((boxes, np.array([0]), np.array([0.9])), truth))

    assert score(car) == 1.0
    assert score(car + np.array([0, 0, 0, 0, 0, 0, math.pi])) == 1.0  # half round: the same box
    # a fifth of its width aside: IoU 0.8 / 1.2, above 4 of the 10 thresholds (0.5 to 0.65)
    assert score(car + np.array([0, 1.9 / 5, 0, 0, 0, 0, 0])) == pytest.approx(0.4)
    assert score(car + np.array([0, 1.9 / 2, 0, 0, 0, 0, 0])) == 0.0  # IoU 1/3
    no_truth = (car[:0], np.array([], int))
    assert math.isnan(script.sample_map((car, np.array([0]), np.array([0.9])), no_truth))
    assert "pretrained" not in takes(script)  # a lidar raster: random weights only
