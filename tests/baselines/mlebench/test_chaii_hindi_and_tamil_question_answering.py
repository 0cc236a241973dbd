"""chaii-hindi-and-tamil-question-answering's baseline: a smoke run on the Hindi and Tamil passages through the real grader (the rule and the transformer both run), its margin over the sample
submission, the submission's form, and the architecture behind ``--pretrained none``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from baselines.mlebench import chaii_hindi_and_tamil_question_answering as script
from baselines.text import ARCHITECTURES
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "chaii-hindi-and-tamil-question-answering"
MARGIN = 0.7
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
    assert list(sub["id"]) == list(sample["id"])
    test = pd.read_csv(public / "test.csv", dtype=str)
    assert all(a in c for a, c in zip(sub["PredictionString"], test["context"], strict=True))


def test_pretrained_none_builds_the_hub_architecture() -> None:
    assert script.HUB_ID in ARCHITECTURES and not script.TRANSFORMER_ON_CPU
