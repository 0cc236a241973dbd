"""DETR for the box baselines: transformers' ``DetrForObjectDetection`` on a transformers ResNet-50
backbone (``use_timm_backbone=False``: timm does not import here), its targets and its
detections.

Weights: the COCO-trained ``facebook/detr-resnet-50`` at its ``no_timm`` revision (the same
weights, stored for the transformers backbone), with a fresh class head for the task's
labels; ``--pretrained PATH`` loads a local copy; ``--pretrained none`` builds the same
architecture (``architecture``) with random weights, offline. DETR matches its 100 queries
to the true boxes one to one (Hungarian matching, inside transformers' loss), so it needs no
anchors and no non-maximum suppression; a query that matches nothing learns "no object".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from baselines.boxes import cxcywh_to_xyxy, xyxy_to_cxcywh
from baselines.kit import SetupError

HUB_ID = "facebook/detr-resnet-50"
REVISION = "no_timm"
"""The hub revision of ``HUB_ID`` whose backbone is transformers' ResNet, not timm's."""


def architecture(num_labels: int) -> Any:
    """DETR-ResNet-50's configuration (the hub's ``config.json``: 6 encoder and 6 decoder
    layers of width 256, 100 queries) on transformers' ResNet-50, with ``num_labels`` classes;
    41.5M parameters."""
    from transformers import DetrConfig

    from baselines.vision import ARCHITECTURES

    backbone = ARCHITECTURES["microsoft/resnet-50"]()
    backbone.out_features = ["stage4"]
    return DetrConfig(  # type: ignore[call-arg]  # its keywords are typed as **kwargs
        use_timm_backbone=False,
        backbone_config=backbone,
        use_pretrained_backbone=False,
        num_labels=num_labels,
    )


def detector(num_labels: int, pretrained: str | None) -> torch.nn.Module:
    """DETR with a ``num_labels``-class head: ``HUB_ID``'s weights (``pretrained`` None), those
    of a hub id or folder, or random ones (``none``)."""
    from transformers import DetrForObjectDetection

    if pretrained == "none":
        return DetrForObjectDetection(architecture(num_labels))
    name = pretrained or HUB_ID
    try:
        return DetrForObjectDetection.from_pretrained(
            name,
            revision=REVISION if name == HUB_ID else "main",  # "main": the hub's default
            num_labels=num_labels,
            ignore_mismatched_sizes=True,
        )
    except (OSError, ValueError) as e:  # no hub, no cache, or not a model folder
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise SetupError(
            f"cannot load pretrained weights {name!r} ({first}); without hub access pass "
            "--pretrained none (random weights) or --pretrained PATH (a local copy)"
        ) from None


def targets(
    boxes: Sequence[np.ndarray],
    labels: Sequence[np.ndarray],
    sizes: Sequence[tuple[int, int]],
    device: torch.device,
) -> list[dict[str, torch.Tensor]]:
    """DETR's ``labels`` argument: per image, its class ids and its ``(N, 4)`` corner boxes in
    pixels of an image of ``(width, height)``, as centre-size boxes in fractions of the image."""
    out = []
    for b, c, (width, height) in zip(boxes, labels, sizes, strict=True):
        xyxy = torch.as_tensor(np.asarray(b, np.float32).reshape(-1, 4))
        scale = torch.tensor([width, height, width, height], dtype=torch.float32)
        normalised = xyxy_to_cxcywh(xyxy / scale).clamp(0, 1)
        out.append(
            {
                "class_labels": torch.as_tensor(np.asarray(c, np.int64)).to(device),
                "boxes": normalised.to(device),
            }
        )
    return out


def detections(
    logits: torch.Tensor, pred_boxes: torch.Tensor, sizes: Sequence[tuple[int, int]]
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Per image, every query's most likely class (the "no object" class left out), its
    probability, and its corner box in pixels of an image of ``(width, height)``, best first:
    ``(scores, classes, boxes)``. Average precision rewards keeping them all."""
    probs = torch.softmax(logits.detach().float(), dim=-1)[..., :-1]
    pred_boxes = pred_boxes.detach()
    scores, classes = probs.max(dim=-1)
    out = []
    for k, (width, height) in enumerate(sizes):
        scale = torch.tensor([width, height, width, height], dtype=torch.float32)
        xyxy = cxcywh_to_xyxy(pred_boxes[k].float().cpu()) * scale
        xyxy[:, 0::2] = xyxy[:, 0::2].clamp(0, width)
        xyxy[:, 1::2] = xyxy[:, 1::2].clamp(0, height)
        order = torch.argsort(scores[k].cpu(), descending=True)
        out.append(
            (
                scores[k].cpu()[order].numpy(),
                classes[k].cpu()[order].numpy(),
                xyxy[order].numpy(),
            )
        )
    return out
