"""tensorflow-speech-recognition-challenge's baseline: a smoke run on the spoken words through
the real grader, its margin over the sample submission (all ``silence``), and the submission's
form: the competition's 12 labels only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from baselines.kit import takes
from baselines.mlebench import tensorflow_speech_recognition_challenge as script
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "tensorflow-speech-recognition-challenge"
MARGIN = 0.05
"""The smoke baseline's least lead over the sample submission (accuracy 0) on the fixture
(seed 11); it scored 0.1. Upstream's answers are the 30 words (its issue #63), so only the
command clips, about a third, can be right."""


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
    assert list(sub["fname"]) == list(pd.read_csv(public / "sample_submission.csv")["fname"])
    assert sub["label"].isin(script.LABELS).all()
    assert sub["label"].isin(script.COMMANDS).any()


def test_trains_a_network_from_scratch() -> None:
    assert "device" in takes(script) and "pretrained" not in takes(script)
