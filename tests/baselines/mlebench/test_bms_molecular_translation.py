"""bms-molecular-translation's baseline: a smoke run on the drawings through the real grader, its
margin over the sample submission, the CTC reader trained and scored against the constant, the
submission's form, and the architecture behind ``--pretrained none``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from baselines.mlebench import bms_molecular_translation as script
from baselines.vision import ARCHITECTURES
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "bms-molecular-translation"
MARGIN = 5.0
"""The smoke baseline's least lead in mean Levenshtein distance over the sample submission
(water for every drawing) on the fixture (seed 11). At smoke size (30 steps) the constant wins
the hold-out; the CTC reader overtakes it after a few hundred steps."""


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
    assert re.search(r"hold-out distance: ctc \d+\.\d\d, constant \d+\.\d\d", log), log
    assert "read 60/60 test drawings" in log  # the test read by CTC, a chunk at a time
    sub = pd.read_csv(folder / "submission.csv", dtype={"image_id": str})
    assert list(sub["image_id"]) == list(
        pd.read_csv(public / "sample_submission.csv", dtype={"image_id": str})["image_id"]
    )
    assert sub["InChI"].str.startswith(script.PREFIX).all()


def test_greedy_ctc_decoding_merges_repeats_and_drops_blanks() -> None:
    steps = [1, 1, 0, 1, 2, 2, 0, 0, 3]  # a a _ a b b _ _ c
    logits = np.eye(4)[steps][None]
    assert script.greedy(logits, "abc") == [script.PREFIX + "aabc"]


def test_pretrained_none_builds_the_hub_architecture() -> None:
    assert script.HUB_ID in ARCHITECTURES
