"""leaf-classification's baseline: a smoke run through the real grader, calibrated
probabilities for every species."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from baselines.kit import takes
from baselines.mlebench import leaf_classification as script
from tests.baselines.helpers import assert_smoke_check_holds, outcomes_of

CID = "leaf-classification"


def test_smoke_run_is_valid_and_beats_the_sample_by_far(lite_check: dict[str, Any]) -> None:
    folder = assert_smoke_check_holds(lite_check, CID)
    sub = pd.read_csv(folder / "submission.csv")
    assert len(sub.columns) == 100 and np.allclose(sub.iloc[:, 1:].sum(axis=1), 1, atol=1e-6)
    evidence = outcomes_of(lite_check, CID)[("baseline", "better than the sample")]["evidence"]
    score = float(evidence.split()[1])
    assert score < 1.0, evidence  # the sample scores log(99) = 4.6


def test_needs_no_gpu_and_no_pretrained_weights() -> None:
    assert not {"device", "pretrained"} & takes(script)
