"""CenterNet: training targets that decode back to their boxes, the focal loss, and the starting
bias of the heatmaps."""

from __future__ import annotations

import numpy as np
import torch

from baselines.centernet import (
    PRIOR,
    box_loss,
    box_targets,
    decode_boxes,
    focal_loss,
    start_heatmaps,
)
from baselines.segment import UNet


def test_targets_decode_to_their_boxes() -> None:
    boxes = np.array([[2.0, 3, 10, 9], [20, 20, 31, 29]], np.float32)
    heat, size, mask = box_targets(boxes, np.array([0, 2]), 3, 32, 40)
    assert heat.shape == (3, 32, 40) and mask.sum() == 2 and heat.max() == 1
    perfect = torch.cat([torch.logit(heat.clamp(1e-4, 1 - 1e-4)), size])
    found, classes, scores = decode_boxes(perfect, 3, k=10, min_score=0.5)
    order = np.argsort(classes)
    assert classes[order].tolist() == [0, 2] and (scores > 0.99).all()
    assert np.abs(found[order] - boxes).max() <= 1.0  # centres on the pixel grid: within a pixel
    blank = torch.zeros_like(perfect)
    targets = (heat[None], size[None], mask[None])
    assert box_loss(perfect[None], *targets) < box_loss(blank[None], *targets) / 10


def test_focal_loss_is_lower_for_the_right_heatmap() -> None:
    heat, _, _ = box_targets(np.array([[4.0, 4, 12, 12]]), np.array([0]), 1, 16, 16)
    right = torch.logit(heat.clamp(0.01, 0.99))[None]
    assert focal_loss(right, heat[None]) < focal_loss(torch.zeros_like(right), heat[None])


def test_heatmaps_start_at_the_prior() -> None:
    model = start_heatmaps(UNet(3, 5, (8, 16)), 3)
    out = torch.sigmoid(model(torch.zeros(1, 3, 8, 8)))
    bias = model.decoder.head.bias.detach()
    assert torch.allclose(torch.sigmoid(bias[:3]), torch.tensor(PRIOR))
    assert out.shape == (1, 5, 8, 8)
