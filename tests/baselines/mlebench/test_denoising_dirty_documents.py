"""denoising-dirty-documents' baseline: a smoke run through the real grader, one value per
test pixel, and a denoiser that works on pages of any size."""

from __future__ import annotations

from typing import Any

import pandas as pd
import torch

from baselines.kit import takes
from baselines.mlebench import denoising_dirty_documents as script
from tests.baselines.helpers import assert_smoke_check_holds

CID = "denoising-dirty-documents"


def test_smoke_run_is_valid_and_beats_the_sample(lite_check: dict[str, Any]) -> None:
    folder = assert_smoke_check_holds(lite_check, CID)
    sub = pd.read_csv(folder / "submission.csv")
    assert sub["value"].between(0, 1).all() and sub["id"].is_unique


def test_the_denoiser_keeps_the_page_size_and_trains_from_scratch() -> None:
    model = script.Denoiser()
    page = torch.rand(1, 1, 37, 53)
    out = model(page)
    assert out.shape == page.shape and out.min() >= 0 and out.max() <= 1
    assert "device" in takes(script) and "pretrained" not in takes(script)
