"""kuzushiji-recognition's baseline: a smoke run through the real grader, its margin over the
sample submission, centre points of known characters on the page, and the local F1's
first-match rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from baselines.mlebench import kuzushiji_recognition as script
from baselines.vision import ARCHITECTURES
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "kuzushiji-recognition"
MARGIN = 0.05
"""The smoke baseline's least lead over the sample submission (which scores 0) on the fixture
(seed 11), in F1: 40 steps of each network, from random weights."""


@pytest.fixture(scope="module")
def checked(
    tmp_path_factory: pytest.TempPathFactory, mlebench_data: Path, mlebench_checkout: Path
) -> dict[str, Any]:
    return smoke_check(CID, mlebench_data, mlebench_checkout, tmp_path_factory.mktemp(CID))


def test_smoke_run_is_valid_and_beats_the_sample(
    checked: dict[str, Any], mlebench_data: Path
) -> None:
    folder = assert_smoke_check_holds(checked, CID)
    assert margin_over_sample(checked, CID) >= MARGIN
    log = (folder / "log.txt").read_text()
    assert "(CenterNet)" in log and "weights: random (--pretrained none)" in log
    train = pd.read_csv(mlebench_data / CID / "prepared" / "public" / "train.csv")
    known = {c for text in train["labels"].dropna() for c in text.split()[0::5]}
    sub = pd.read_csv(folder / "submission.csv", keep_default_na=False)
    tokens = [t for text in sub["labels"] for t in text.split()]
    assert tokens and len(tokens) % 3 == 0 and set(tokens[0::3]) <= known
    assert all(t.isdigit() for t in tokens[1::3] + tokens[2::3])


def test_f1_takes_the_first_point_of_the_class_strictly_inside() -> None:
    boxes = np.array([[0, 0, 10, 10], [20, 0, 30, 10]], np.float32)
    points = [("U+3042", 5.0, 5.0), ("U+3042", 6.0, 6.0), ("U+3044", 10.0, 5.0)]
    counts = script.f1_counts(points, ["U+3042", "U+3044"], boxes)
    assert counts.tolist() == [1, 2, 1]  # the edge point misses; the second point is spare
    assert script.f1(counts) == pytest.approx(2 / (2 + 2 + 1))


def test_pretrained_none_builds_the_hub_architecture() -> None:
    assert script.HUB_ID in ARCHITECTURES
