"""champs-scalar-coupling's baseline: a smoke run of the per-type models through the real
grader, its margin over the sample submission, the submission's form, and that it reads
nothing but train.csv and test.csv (the per-atom files hold the training molecules only)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from baselines.kit import call_main, takes
from baselines.mlebench import champs_scalar_coupling as script
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "champs-scalar-coupling"
MARGIN = 0.5
"""The smoke baseline's least lead over the sample submission on the fixture (seed 11), in
mean log(MAE): it scored 0.90 against the all-zero sample's 1.86."""


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
    assert list(sub.columns) == ["id", "scalar_coupling_constant"]
    assert np.isfinite(sub["scalar_coupling_constant"]).all()
    assert list(sub["id"]) == list(pd.read_csv(public / "sample_submission.csv")["id"])


def test_reads_only_the_coupling_tables(
    checked: dict[str, Any], mlebench_data: Path, tmp_path: Path
) -> None:
    public = tmp_path / "public"
    public.mkdir()
    for name in ("train.csv", "test.csv"):
        shutil.copy(mlebench_data / CID / "prepared" / "public" / name, public / name)
    call_main(script, public, tmp_path / "alone.csv", smoke=True, threads=1)
    folder = Path(checked["out"]) / f"mlebench-{CID}" / "baseline"
    assert (tmp_path / "alone.csv").read_bytes() == (folder / "submission.csv").read_bytes()


def test_needs_no_gpu_and_no_pretrained_weights() -> None:
    assert not {"device", "pretrained"} & takes(script)
