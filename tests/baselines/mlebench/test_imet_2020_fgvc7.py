"""imet-2020-fgvc7's baseline: a smoke run on the museum-object photographs through the real
grader, its margin over the sample submission, the submission's form (never an empty set, never
a column of single ids), and the architecture behind ``--pretrained none``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from baselines.mlebench import imet_2020_fgvc7 as script
from baselines.vision import ARCHITECTURES
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "imet-2020-fgvc7"
MARGIN = 0.05
"""The smoke baseline's least lead over the sample submission on the fixture (seed 11)."""


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
    sub = pd.read_csv(folder / "submission.csv", dtype=str)
    seen = {
        a for s in pd.read_csv(public / "train.csv", dtype=str)["attribute_ids"] for a in s.split()
    }
    assert all(s and set(s.split()) <= seen for s in sub["attribute_ids"])
    assert any(" " in s for s in sub["attribute_ids"])
    assert list(sub["id"]) == list(pd.read_csv(public / "sample_submission.csv")["id"])


def test_a_column_of_single_ids_gets_a_second_where_likeliest() -> None:
    picked = np.array([[True, False, False], [False, True, False]])
    probabilities = np.array([[0.9, 0.2, 0.1], [0.1, 0.8, 0.7]])
    out = script.never_all_single(picked, probabilities)
    assert out.tolist() == [[True, False, False], [False, True, True]]
    assert script.never_all_single(out, probabilities) is out


def test_pretrained_none_builds_the_hub_architecture() -> None:
    assert script.HUB_ID in ARCHITECTURES
