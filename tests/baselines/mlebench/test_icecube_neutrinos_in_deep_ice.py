"""icecube-neutrinos-in-deep-ice's baseline: a smoke run of the pulse fits and their boosted
correction through the real grader, its margin over the sample submission, the submission's
form, and the fits' directions on pulses whose direction is known."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from baselines.kit import takes
from baselines.mlebench import icecube_neutrinos_in_deep_ice as script
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "icecube-neutrinos-in-deep-ice"
MARGIN = 1.0
"""The smoke baseline's least lead over the sample submission on the fixture (seed 11), in
radians: it scored 0.007 against the sample's 1.58."""


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
    assert list(sub.columns) == ["event_id", "azimuth", "zenith"]
    assert sub["azimuth"].between(0, 2 * np.pi).all() and sub["zenith"].between(0, np.pi).all()
    sample = pd.read_csv(public / "sample_submission.csv")
    assert list(sub["event_id"]) == list(sample["event_id"])


def test_the_fits_point_along_a_track() -> None:
    """Light reaching sensors at times that grow along a direction: the line and plane fits
    name it, and the angles convert back."""
    rng = np.random.default_rng(0)
    sensors = rng.uniform(-500, 500, (50, 3))
    direction = np.array([[0.6, -0.48, 0.64]])
    hit = rng.choice(50, 8, replace=False)
    pulses = pd.DataFrame(
        {
            "sensor_id": hit,
            "time": np.rint(1_000 + sensors[hit] @ direction[0] / 0.2998).astype(np.int64),
            "charge": 1.0,
            "auxiliary": False,
        },
        index=pd.Index([7] * 8, name="event_id"),
    ).sort_values("time")
    found = script.event_features(pulses, sensors)
    plane = found[["plane_x", "plane_y", "plane_z"]].to_numpy()
    line = found[["line_x", "line_y", "line_z"]].to_numpy()
    assert script.angular_error(plane, direction) < 0.01
    assert script.angular_error(line, direction) < 0.5
    azimuth, zenith = script.to_angles(direction)
    assert np.allclose(script.to_vector(azimuth, zenith), direction)


def test_needs_no_gpu_and_no_pretrained_weights() -> None:
    assert not {"device", "pretrained"} & takes(script)
