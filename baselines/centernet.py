"""CenterNet for the box and point baselines: an object is the peak of a Gaussian at its
centre on its class's heatmap, and its size is read at that peak.

A network (a ``segment`` U-Net, at its input's resolution) outputs ``C`` heatmap logits, one
per class, then the regression channels; for boxes (``box_targets``, ``box_loss``,
``decode_boxes``) those are the log width and log height in pixels, trained only at the
centres. The heatmaps learn with CenterNet's penalty-reduced focal loss (pixels near a centre
are barely penalised), and decoding keeps local maxima (a 3x3 max-pool in place of
non-maximum suppression). Anchor-free and quick to learn where objects lie, it suits many
small objects (a page of characters, cars around a lidar) and starts from a pretrained
encoder.
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import torch
import torch.nn.functional as F

Net = TypeVar("Net", bound=torch.nn.Module)
SIZE_WEIGHT = 0.1
"""Weight of the size regression (L1 on log pixels) beside the heatmap loss."""
PRIOR = 0.1
"""Every heatmap pixel starts at this probability (CenterNet's bias of -2.19): starting at
0.5, the loss of the background's millions of pixels would swamp the first steps."""


def start_heatmaps(model: Net, n_classes: int) -> Net:
    """Set the bias of a ``segment`` U-Net's first ``n_classes`` outputs to ``PRIOR``'s logit."""
    head = model.get_submodule("decoder.head")
    assert isinstance(head, torch.nn.Conv2d) and head.bias is not None
    with torch.no_grad():
        head.bias[:n_classes] = float(np.log(PRIOR / (1 - PRIOR)))
    return model


def draw_centres(
    heatmap: torch.Tensor, xs: torch.Tensor, ys: torch.Tensor, sigmas: torch.Tensor
) -> torch.Tensor:
    """``heatmap`` (H, W) with a Gaussian peak of height 1 at each centre (pixel coordinates,
    ``sigmas`` pixels wide) laid in by maximum, as CenterNet's training targets."""
    height, width = heatmap.shape
    rows = torch.arange(height, dtype=torch.float32, device=heatmap.device)
    cols = torch.arange(width, dtype=torch.float32, device=heatmap.device)
    for x, y, s in zip(xs.tolist(), ys.tolist(), sigmas.tolist(), strict=True):
        reach = max(1, int(3 * s) + 1)
        r0, r1 = max(0, int(y) - reach), min(height, int(y) + reach + 1)
        c0, c1 = max(0, int(x) - reach), min(width, int(x) + reach + 1)
        if r0 >= r1 or c0 >= c1:
            continue
        dy = (rows[r0:r1, None] - y) ** 2
        dx = (cols[None, c0:c1] - x) ** 2
        blob = torch.exp(-(dx + dy) / (2 * s * s))
        heatmap[r0:r1, c0:c1] = torch.maximum(heatmap[r0:r1, c0:c1], blob)
    return heatmap


def focal_loss(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on heatmap logits: the pixels at a peak (target
    1) are the positives, the rest negatives weighted down near a peak by ``(1 - target)^4``;
    normalised by the number of peaks."""
    p = torch.sigmoid(logits.float()).clamp(1e-4, 1 - 1e-4)
    peak = target >= 1
    positive = -torch.log(p) * (1 - p) ** 2 * peak
    negative = -torch.log(1 - p) * p**2 * (1 - target) ** 4 * ~peak
    return (positive.sum() + negative.sum()) / peak.sum().clamp(min=1)


def peaks(
    heatmap: torch.Tensor, k: int, min_score: float = 0.0
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """The ``k`` strongest local maxima (3x3) of a ``(C, H, W)`` map of probabilities, above
    ``min_score``: their scores, channels, rows and columns."""
    height, width = heatmap.shape[-2:]
    pooled = F.max_pool2d(heatmap[None], 3, stride=1, padding=1)[0]
    kept = torch.where(pooled == heatmap, heatmap, torch.zeros_like(heatmap)).flatten()
    scores, index = torch.topk(kept, min(k, kept.numel()))
    chosen = scores > min_score
    scores, index = scores[chosen], index[chosen]
    return scores, index // (height * width), (index // width) % height, index % width


def box_targets(
    boxes: np.ndarray, classes: np.ndarray, n_classes: int, height: int, width: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Training targets of one image from its corner boxes (pixels of the network's input):
    heatmaps ``(C, H, W)`` (a Gaussian a sixth of the box's smaller side wide at each centre),
    log sizes ``(2, H, W)`` and the mask of centre pixels ``(H, W)``."""
    heat = torch.zeros(n_classes, height, width)
    size = torch.zeros(2, height, width)
    mask = torch.zeros(height, width, dtype=torch.bool)
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    if len(boxes) == 0:
        return heat, size, mask
    w = np.maximum(boxes[:, 2] - boxes[:, 0], 1.0)
    h = np.maximum(boxes[:, 3] - boxes[:, 1], 1.0)
    cx = np.clip((boxes[:, 0] + boxes[:, 2]) / 2, 0, width - 1)
    cy = np.clip((boxes[:, 1] + boxes[:, 3]) / 2, 0, height - 1)
    sigmas = torch.tensor(np.maximum(np.minimum(w, h) / 6, 0.5))
    for c in np.unique(classes):
        chosen = np.asarray(classes) == c
        xs, ys = torch.tensor(cx[chosen] - 0.5), torch.tensor(cy[chosen] - 0.5)
        draw_centres(heat[int(c)], xs, ys, sigmas[chosen])
    rows, cols = torch.tensor(cy.astype(np.int64)), torch.tensor(cx.astype(np.int64))
    for k in range(len(boxes)):
        heat[int(classes[k]), rows[k], cols[k]] = 1.0  # the centre pixel itself is the peak
    size[0, rows, cols] = torch.tensor(np.log(w))
    size[1, rows, cols] = torch.tensor(np.log(h))
    mask[rows, cols] = True
    return heat, size, mask


def box_loss(
    out: torch.Tensor, heat: torch.Tensor, size: torch.Tensor, mask: torch.Tensor
) -> torch.Tensor:
    """Focal loss on the heatmaps plus ``SIZE_WEIGHT`` x L1 on the log sizes at the centres,
    for a batch: ``out`` (B, C + 2, H, W), targets as ``box_targets`` stacked."""
    n_classes = heat.shape[1]
    loss = focal_loss(out[:, :n_classes], heat)
    if mask.any():
        predicted = out[:, n_classes : n_classes + 2].float().permute(0, 2, 3, 1)[mask]
        loss = loss + SIZE_WEIGHT * F.l1_loss(predicted, size.permute(0, 2, 3, 1)[mask])
    return loss


def decode_boxes(
    out: torch.Tensor, n_classes: int, k: int, min_score: float = 0.01
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ``k`` best boxes of one image's output ``(C + 2, H, W)``: corner boxes in input
    pixels ``(K, 4)``, classes and scores, best first."""
    heat = torch.sigmoid(out[:n_classes].float())
    scores, classes, rows, cols = peaks(heat, k, min_score)
    w = torch.exp(out[n_classes, rows, cols].float()).clamp(max=out.shape[-1] * 2)
    h = torch.exp(out[n_classes + 1, rows, cols].float()).clamp(max=out.shape[-2] * 2)
    cx, cy = cols.float() + 0.5, rows.float() + 0.5
    boxes = torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], dim=1)
    return boxes.cpu().numpy(), classes.cpu().numpy(), scores.cpu().numpy()
