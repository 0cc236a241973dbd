"""DETR without timm: the architecture ``--pretrained none`` builds, its loss on our targets, and
detections back in image pixels."""

from __future__ import annotations

import numpy as np
import torch

from baselines import detr


def test_architecture_trains_on_targets_and_detects_in_pixels() -> None:
    from transformers import DetrForObjectDetection

    from baselines.vision import ARCHITECTURES

    config = detr.architecture(2)
    assert config.use_timm_backbone is False and config.backbone_config.layer_type == "bottleneck"
    config.backbone_config = ARCHITECTURES["microsoft/resnet-18"]()  # cut down, for speed
    config.backbone_config.out_features = ["stage4"]
    config.encoder_layers = config.decoder_layers = 1
    config.num_queries = 5
    model = DetrForObjectDetection(config)
    boxes = [np.array([[8.0, 8, 24, 16]]), np.zeros((0, 4))]
    wanted = detr.targets(
        boxes, [np.array([1]), np.zeros(0, int)], [(32, 32), (32, 32)], torch.device("cpu")
    )
    assert torch.allclose(wanted[0]["boxes"], torch.tensor([[0.5, 0.375, 0.5, 0.25]]))
    out = model(pixel_values=torch.rand(2, 3, 32, 32), labels=wanted)
    assert torch.isfinite(out.loss)
    (scores, classes, corners), _ = detr.detections(
        out.logits, out.pred_boxes, [(64, 32), (64, 32)]
    )
    assert len(scores) == 5 and (np.diff(scores) <= 0).all() and set(classes) <= {0, 1}
    assert corners[:, 0::2].max() <= 64 and corners[:, 1::2].max() <= 32


def test_pretrained_none_is_detr_resnet_50() -> None:
    model = detr.detector(1, "none")
    assert round(sum(p.numel() for p in model.parameters()) / 1e6, 1) == 41.5
