"""billion-word-imputation's baseline: a smoke run through the real grader (a bigram model), its margin over the sample
submission and the submission's form: the test sentences, a word put back only in some."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from baselines.kit import takes
from baselines.mlebench import billion_word_imputation as script
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "billion-word-imputation"
MARGIN = 1.0
"""The smoke baseline's least lead over the sample submission on the fixture (seed 11);
measured: mean Levenshtein 4.007 against 5.603."""


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
    sub = pd.read_csv(folder / "submission.csv", keep_default_na=False)
    test = pd.read_csv(public / "test_v2.txt.zip", keep_default_na=False)
    assert list(sub.columns) == ["id", "sentence"] and list(sub["id"]) == list(test["id"])
    longer = sub["sentence"].str.split().str.len() - test["sentence"].str.split().str.len()
    assert longer.isin([0, 1]).all() and 0 < longer.mean() < 1  # one word at most, when sure
    for before, after in zip(test["sentence"], sub["sentence"], strict=True):
        kept = after.split()
        assert any(kept[:k] + kept[k + 1 :] == before.split() for k in range(len(kept))) or (
            kept == before.split()
        )


def test_needs_no_gpu_and_no_pretrained_weights() -> None:
    assert not {"device", "pretrained"} & takes(script)
