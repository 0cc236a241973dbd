"""stanford-covid-vaccine's baseline: a smoke run of the per-base models through the real
grader, its margin over the sample submission, the submission's form (the answers' row order,
which the grader's mask relies on), and the pairing partners it reads off the structure."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from baselines.kit import takes
from baselines.mlebench import stanford_covid_vaccine as script
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "stanford-covid-vaccine"
MARGIN = 0.3
"""The smoke baseline's least lead over the sample submission on the fixture (seed 11), in
MCRMSE: it scored 0.256 against the all-zero sample's 0.791."""


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
    sample = pd.read_csv(public / "sample_submission.csv")
    assert list(sub.columns) == list(sample.columns)
    assert list(sub["id_seqpos"]) == list(sample["id_seqpos"])
    assert np.isfinite(sub.iloc[:, 1:].to_numpy()).all()


def test_partners_pair_the_brackets() -> None:
    rna = pd.DataFrame(
        [{"sequence": "GACUUC", "structure": "((..))", "seq_scored": 4, "seq_length": 6}]
    )
    found = script.partners(rna, scored_only=False)
    assert list(found["partner_base"]) == [1, 3, -1, -1, 0, 2]  # C, U, -, -, A, G
    assert list(found["partner_distance"]) == [5, 3, 0, 0, 3, 5]
    assert len(script.partners(rna, scored_only=True)) == 4


def test_needs_no_gpu_and_no_pretrained_weights() -> None:
    assert not {"device", "pretrained"} & takes(script)
