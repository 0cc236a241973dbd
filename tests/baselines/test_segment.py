"""The segmentation kit: U-Nets of any input size, tiled prediction, thresholds, and masks moved
between the working and the competition's resolution without building the full mask."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from baselines.segment import (
    UNet,
    best_threshold,
    dice_bce,
    intervals_at_size,
    predict_tiled,
    resized_from_runs,
    resnet_unet,
    tile_count,
)
from rlecodec import decode, encode, encode_intervals, parse


def test_unets_keep_any_input_size() -> None:
    x = torch.rand(2, 5, 37, 41)
    assert UNet(5, 2, (8, 16, 32))(x).shape == (2, 2, 37, 41)
    model = resnet_unet("microsoft/resnet-18", 5, 3, "none")  # 5 channels through a 1x1 conv
    assert model(x).shape == (2, 3, 37, 41)


def test_dice_bce_prefers_the_right_mask() -> None:
    target = torch.zeros(1, 1, 8, 8)
    target[..., 2:5, 2:5] = 1
    right, wrong = dice_bce(target * 20 - 10, target), dice_bce(10 - target * 20, target)
    assert right < 0.01 < 1 < wrong


def test_tiles_cover_the_image_and_average_where_they_overlap() -> None:
    image = np.random.default_rng(0).random((2, 70, 45)).astype(np.float32)
    calls = []

    def forward(x: torch.Tensor) -> torch.Tensor:  # logit of each pixel's first channel
        calls.append(len(x))
        p = x[:, :1].clamp(1e-4, 1 - 1e-4)
        return torch.log(p / (1 - p))

    probs = predict_tiled(
        forward, image, tile=32, overlap=8, batch_size=4, device=torch.device("cpu")
    )
    assert probs.shape == (1, 70, 45) and np.allclose(probs[0], image[0], atol=1e-4)
    assert sum(calls) == tile_count(image.shape, 32, 8) == 3 * 2
    small = predict_tiled(forward, image[:, :10, :12], 32, 8, 4, torch.device("cpu"))
    assert small.shape == (1, 10, 12)  # smaller than a tile: padded, cropped back


def test_best_threshold_never_picks_nan() -> None:
    scores = {0.1: 0.2, 0.5: float("nan"), 0.7: 0.6}
    assert best_threshold(lambda t: scores.get(round(t, 2), 0.0), [0.1, 0.5, 0.7]) == (0.7, 0.6)


@pytest.mark.parametrize("seed", range(20))
def test_masks_resize_through_runs_as_nearest_neighbour(seed: int) -> None:
    rng = np.random.default_rng(seed)
    height, width = rng.integers(1, 40, 2)
    mask = rng.random((height, width)) < rng.random()
    out_h, out_w = (int(v) for v in rng.integers(1, 60, 2))
    runs = parse(encode(mask), int(height * width))  # runs may wrap from column to column
    rows = ((np.arange(out_h) + 0.5) * height / out_h).astype(int)
    cols = ((np.arange(out_w) + 0.5) * width / out_w).astype(int)
    small = resized_from_runs(runs.lo, runs.hi, int(height), int(width), out_h, out_w)
    assert (small == mask[np.ix_(rows, cols)]).all()
    full = decode(encode_intervals(*intervals_at_size(mask, out_h, out_w)), out_h, out_w)
    rows, cols = np.arange(out_h) * height // out_h, np.arange(out_w) * width // out_w
    assert (full == mask[np.ix_(rows, cols)]).all()


def test_a_gigapixel_mask_is_written_from_its_small_version() -> None:
    small = np.zeros((100, 80), bool)
    small[10:20, 30:35] = True
    lo, hi = intervals_at_size(small, 40_000, 32_000)  # 1.28 gigapixels, never built
    runs = parse(encode_intervals(lo, hi), 40_000 * 32_000)
    assert runs.area == (10 * 400) * (5 * 400)
