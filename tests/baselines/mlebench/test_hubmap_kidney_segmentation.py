"""hubmap-kidney-segmentation's baseline: a smoke run through the real grader, its margin over
the sample submission, masks at each slide's full size, and the known leak left alone: with the
glomerulus polygons (``test/<id>.json``) deleted it writes the same submission."""

from __future__ import annotations

import filecmp
import shutil
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from baselines.kit import call_main
from baselines.mlebench import hubmap_kidney_segmentation as script
from rlecodec import parse
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "hubmap-kidney-segmentation"
MARGIN = 0.4
"""The smoke baseline's least lead over the sample submission (which scores 0) on the fixture
(seed 11), in mean Dice."""


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
    sub = pd.read_csv(folder / "submission.csv", keep_default_na=False)
    info = pd.read_csv(mlebench_data / CID / "prepared/public/HuBMAP-20-dataset_information.csv")
    pixels = dict(zip(info["image_file"].str.removesuffix(".tiff"),
                      info["width_pixels"] * info["height_pixels"], strict=True))  # fmt: skip
    for slide, cell in zip(sub["id"], sub["predicted"], strict=True):
        runs = parse(cell, pixels[slide])
        assert 0 < runs.area < pixels[slide] and int(runs.hi.max()) <= pixels[slide]


def test_the_leaked_polygons_are_never_read(
    checked: dict[str, Any], mlebench_data: Path, tmp_path: Path
) -> None:
    """Slow: a second smoke run (about 15 s of CPU time) on a busy, shared machine."""
    public = tmp_path / "public"
    shutil.copytree(mlebench_data / CID / "prepared" / "public", public)
    leaks = [p for p in (public / "test").glob("*.json") if "anatomical" not in p.name]
    assert leaks  # upstream's test folder holds each slide's glomerulus polygons
    for path in leaks:
        path.unlink()
    out = tmp_path / "submission.csv"
    call_main(script, public, out, smoke=True, threads=1, device="cpu", pretrained="none")
    baseline = Path(checked["out"]) / f"mlebench-{CID}" / "baseline" / "submission.csv"
    assert filecmp.cmp(out, baseline, shallow=False)
