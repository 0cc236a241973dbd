"""tensorflow2-question-answering's baseline: a smoke run on the Natural Questions pages through the real grader (LightGBM and the reader both run), its margin over the sample
submission, the submission's form, and the architecture behind ``--pretrained none``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from baselines.mlebench import tensorflow2_question_answering as script
from baselines.text import ARCHITECTURES
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "tensorflow2-question-answering"
MARGIN = 0.2
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
    assert f"model {script.HUB_ID} (" in log and "(--pretrained none)" in log
    assert "transformer" in log and "submitting" in log  # both models were compared
    sub = pd.read_csv(folder / "submission.csv", keep_default_na=False)
    sample = pd.read_csv(public / "sample_submission.csv", keep_default_na=False)
    assert sorted(sub["example_id"]) == sorted(sample["example_id"])
    answers = sub["PredictionString"]
    assert answers.str.fullmatch(r"|YES|NO|\d+:\d+").all()
    assert (answers[sub["example_id"].str.endswith("_long")] != "").any()


def test_pretrained_none_builds_the_hub_architecture() -> None:
    assert script.HUB_ID in ARCHITECTURES and not script.TRANSFORMER_ON_CPU
