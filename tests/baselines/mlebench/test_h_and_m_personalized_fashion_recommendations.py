"""h-and-m-personalized-fashion-recommendations' baseline: a smoke run of recall-then-rank
through the real grader, its margin over the sample submission (which scores 0: its ids are
zero-padded, the answers' are not), and the submission's form."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from baselines.kit import takes
from baselines.mlebench import h_and_m_personalized_fashion_recommendations as script
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "h-and-m-personalized-fashion-recommendations"
MARGIN = 0.15
"""The smoke baseline's least lead over the sample submission on the fixture (seed 11), in
MAP@12: it scored 0.293 against the sample's 0."""


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
    sub = pd.read_csv(folder / "submission.csv", dtype=str)
    sample = pd.read_csv(public / "sample_submission.csv", dtype=str)
    assert list(sub["customer_id"]) == list(sample["customer_id"])
    ranked = sub["prediction"].str.split(" ")
    assert (
        ranked.map(len).between(1, 12).all() and ranked.map(lambda r: len(set(r)) == len(r)).all()
    )
    assert not ranked.map(lambda r: any(a.startswith("0") for a in r)).any()  # as the answers


def test_map_at_k_scores_as_the_metric() -> None:
    actual = pd.Series({"a": [1, 2], "b": [3]})
    assert script.map_at_k(actual, {"a": [1, 9, 2], "b": [4]}) == pytest.approx((1 + 2 / 3) / 4)


def test_needs_no_gpu_and_no_pretrained_weights() -> None:
    assert not {"device", "pretrained"} & takes(script)
