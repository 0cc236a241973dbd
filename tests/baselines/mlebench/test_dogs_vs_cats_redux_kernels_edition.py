"""dogs-vs-cats-redux-kernels-edition's baseline: a smoke run on the pet photographs through the real grader, the submission's
form, and the architecture behind ``--pretrained none``."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd

from baselines.mlebench import dogs_vs_cats_redux_kernels_edition as script
from baselines.vision import ARCHITECTURES
from tests.baselines.helpers import assert_smoke_check_holds

CID = "dogs-vs-cats-redux-kernels-edition"


def test_smoke_run_is_valid_and_beats_the_sample(lite_check: dict[str, Any]) -> None:
    folder = assert_smoke_check_holds(lite_check, CID)
    sub = pd.read_csv(folder / "submission.csv")
    assert sub["label"].between(0.005, 0.995).all()
    record = json.loads((folder / "baseline.json").read_text())
    assert record["pretrained"] == "none" and record["device"] == "cpu"
    assert f"model {script.HUB_ID} (" in (folder / "log.txt").read_text()
    assert "weights: random (--pretrained none)" in (folder / "log.txt").read_text()
    assert sub["id"].is_unique and np.isfinite(sub.iloc[:, 1:].to_numpy(float)).all()


def test_pretrained_none_builds_the_hub_architecture() -> None:
    assert script.HUB_ID in ARCHITECTURES
