"""lmsys-chatbot-arena's baseline: a smoke run through the real grader (TF-IDF and the transformer both run), its margin over the sample
submission, the submission's form, and the architecture behind ``--pretrained none``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from baselines.mlebench import lmsys_chatbot_arena as script
from baselines.text import ARCHITECTURES
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "lmsys-chatbot-arena"
MARGIN = 0.15
"""The smoke baseline's least lead over the sample submission on the fixture (seed 11);
measured: log loss 0.833 against 1.099."""


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
    test = pd.read_csv(public / "test.csv")
    assert list(sub.columns) == ["id", "winner_model_a", "winner_model_b", "winner_tie"]
    assert list(sub["id"]) == list(test["id"])
    assert np.allclose(sub.iloc[:, 1:].sum(axis=1), 1, atol=1e-6)
    log = (folder / "log.txt").read_text()
    assert f"model {script.HUB_ID} (" in log
    assert "tokenizer trained on the task's text (--pretrained none)" in log
    assert "transformer" in log and "submitting" in log  # both models were compared


def test_pretrained_none_builds_the_hub_architecture() -> None:
    assert script.HUB_ID in ARCHITECTURES and not script.TRANSFORMER_ON_CPU
