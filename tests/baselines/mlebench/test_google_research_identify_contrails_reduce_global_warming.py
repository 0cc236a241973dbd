"""google-research-identify-contrails-reduce-global-warming's baseline: a smoke run through the
real grader, its margin over the sample submission, masks written with the competition's
``-`` for none at the answers' size, and the ash false colour it reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from baselines.mlebench import google_research_identify_contrails_reduce_global_warming as script
from rlecodec import decode
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "google-research-identify-contrails-reduce-global-warming"
MARGIN = 0.03
"""The smoke baseline's least lead over the sample submission on the fixture (seed 11), in
global Dice (the sample scores about 0.01; a mask of every pixel about 0.1)."""


@pytest.fixture(scope="module")
def checked(
    tmp_path_factory: pytest.TempPathFactory, mlebench_data: Path, mlebench_checkout: Path
) -> dict[str, Any]:
    return smoke_check(CID, mlebench_data, mlebench_checkout, tmp_path_factory.mktemp(CID))


def test_smoke_run_is_valid_and_beats_the_sample(checked: dict[str, Any]) -> None:
    # upstream reads only record_id and encoded_pixels: the sample without width is valid
    folder = assert_smoke_check_holds(checked, CID, accepted=("missing-column",))
    assert margin_over_sample(checked, CID) >= MARGIN
    sub = pd.read_csv(folder / "submission.csv", dtype={"record_id": str}, keep_default_na=False)
    assert list(sub.columns) == ["record_id", "encoded_pixels", "height", "width"]
    cells = sub["encoded_pixels"].tolist()
    assert "" not in cells  # an empty mask is "-", never a blank cell (which is invalid)
    for cell, height, width in zip(cells, sub["height"], sub["width"], strict=True):
        if cell != "-":
            assert decode(cell, height, width).any()


def test_ash_colour_scales_the_bands_and_upsamples_to_the_mask(tmp_path: Path) -> None:
    bands = {11: 250.0, 14: 273.0, 15: 272.0}  # a contrail-free sky: (-1, 23, 273) before scaling
    for band, kelvin in bands.items():
        np.save(tmp_path / f"band_{band:02}.npy", np.full((4, 4, 8), kelvin, np.float16))
    image = script.ash(tmp_path, side=8)
    assert image.shape == (3, 8, 8) and image.dtype == np.uint8
    expected = [(-1 + 4) / 6, 1.0, (273 - 243) / 60]  # green clipped at its top
    assert np.allclose(image[:, 0, 0] / 255, expected, atol=0.01)
