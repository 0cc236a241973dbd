"""mlsp-2013-birds' baseline: a smoke run through the real grader, one probability per
(test recording, species), from the supplied features alone."""

from __future__ import annotations

from typing import Any

import pandas as pd

from baselines.kit import takes
from baselines.mlebench import mlsp_2013_birds as script
from tests.baselines.helpers import assert_smoke_check_holds

CID = "mlsp-2013-birds"


def test_smoke_run_is_valid_and_beats_the_sample(lite_check: dict[str, Any]) -> None:
    folder = assert_smoke_check_holds(lite_check, CID)
    sub = pd.read_csv(folder / "submission.csv")
    assert sub["Probability"].between(0, 1).all() and (sub["Id"] % 100 < 19).all()
    assert sub.groupby(sub["Id"] // 100).size().eq(19).all()
    assert not {"device", "pretrained"} & takes(script)
