"""inaturalist-2019-fgvc6's baseline: a smoke run on the photographs inside the tar archives
through the real grader, its margin over the sample submission, the submission's form, and
the architecture behind ``--pretrained none``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from baselines.mlebench import inaturalist_2019_fgvc6 as script
from baselines.vision import ARCHITECTURES
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "inaturalist-2019-fgvc6"
MARGIN = 0.2
"""The smoke baseline's least lead in top-1 error over the sample submission (one species for
every photograph) on the fixture (seed 11)."""


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
    record = json.loads((folder / "baseline.json").read_text())
    assert record["pretrained"] == "none" and record["device"] == "cpu"
    log = (folder / "log.txt").read_text()
    assert f"model {script.HUB_ID} (" in log and "weights: random (--pretrained none)" in log
    sub = pd.read_csv(folder / "submission.csv")
    species = {c["id"] for c in json.loads((public / "train2019.json").read_text())["categories"]}
    assert set(sub["predicted"]) <= species
    assert list(sub["id"]) == list(pd.read_csv(public / "kaggle_sample_submission.csv")["id"])


def test_pretrained_none_builds_the_hub_architecture() -> None:
    assert script.HUB_ID in ARCHITECTURES
