"""jigsaw-toxic-comment-classification-challenge's baseline: a smoke run on the talk-page comments through the real grader (TF-IDF
and the transformer both run), and the architecture behind ``--pretrained none``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from baselines.mlebench import jigsaw_toxic_comment_classification_challenge as script
from baselines.text import ARCHITECTURES
from tests.baselines.helpers import assert_smoke_check_holds

CID = "jigsaw-toxic-comment-classification-challenge"


def test_smoke_run_is_valid_and_beats_the_sample(lite_check: dict[str, Any]) -> None:
    folder = assert_smoke_check_holds(lite_check, CID)
    sub = pd.read_csv(folder / "submission.csv")
    assert sub.iloc[:, 1:].stack().between(0, 1).all() and sub.shape[1] == 7
    assert np.isfinite(sub.select_dtypes("number").to_numpy(float)).all()
    log = (folder / "log.txt").read_text()
    assert "tokenizer trained on the task's text (--pretrained none)" in log
    assert "transformer" in log and "submitting" in log  # both models were compared


def test_pretrained_none_builds_the_hub_architecture() -> None:
    assert script.HUB_ID in ARCHITECTURES and not script.TRANSFORMER_ON_CPU
