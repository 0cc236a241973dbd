"""Boxes for the detection baselines, in torch (torchvision does not import beside the pinned
torch): areas, pairwise IoU, non-maximum suppression, merging several readers' boxes, and a
PASCAL-VOC-style average precision for the scripts' own validation. Boxes are ``(N, 4)``
float tensors of corners ``x_min, y_min, x_max, y_max`` unless a name says
``cxcywh`` (centre and size, DETR's normalised form).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch


def box_area(boxes: torch.Tensor) -> torch.Tensor:
    """Areas; a reversed box has area 0."""
    return (boxes[:, 2] - boxes[:, 0]).clamp(min=0) * (boxes[:, 3] - boxes[:, 1]).clamp(min=0)


def box_iou(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """``(N, M)`` intersection over union of every box of ``a`` with every box of ``b``; 0
    where the union is empty."""
    top_left = torch.maximum(a[:, None, :2], b[None, :, :2])
    bottom_right = torch.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = (bottom_right - top_left).clamp(min=0).prod(dim=2)
    union = box_area(a)[:, None] + box_area(b)[None, :] - inter
    return torch.where(union > 0, inter / union.clamp(min=1e-12), torch.zeros_like(inter))


def nms(boxes: torch.Tensor, scores: torch.Tensor, iou_threshold: float) -> torch.Tensor:
    """Greedy non-maximum suppression: the indices of the boxes kept, best score first; a box
    is dropped when its IoU with a kept, better-scoring box exceeds ``iou_threshold``."""
    order = torch.argsort(scores, descending=True, stable=True)
    if len(order) == 0:
        return order
    overlaps = box_iou(boxes[order], boxes[order])
    suppressed = torch.zeros(len(order), dtype=torch.bool, device=boxes.device)
    keep = []
    for i in range(len(order)):
        if suppressed[i]:
            continue
        keep.append(i)
        suppressed |= overlaps[i] > iou_threshold
    return order[torch.tensor(keep, dtype=torch.long, device=boxes.device)]


def batched_nms(
    boxes: torch.Tensor, scores: torch.Tensor, classes: torch.Tensor, iou_threshold: float
) -> torch.Tensor:
    """``nms`` within each class (boxes of different classes never suppress each other): each
    class's boxes are shifted apart by more than the largest coordinate."""
    if len(boxes) == 0:
        return torch.zeros(0, dtype=torch.long, device=boxes.device)
    shift = classes.to(boxes.dtype)[:, None] * (boxes.max() - boxes.min() + 1)
    return nms(boxes + shift, scores, iou_threshold)


def merge_boxes(boxes: torch.Tensor, iou_threshold: float) -> tuple[torch.Tensor, torch.Tensor]:
    """Several readers' boxes of one class on one image as one set: boxes overlapping a
    group's first box by more than ``iou_threshold`` join that group, whose box is their mean.
    Returns the merged boxes and how many boxes each merged."""
    if len(boxes) == 0:
        return boxes, torch.zeros(0, dtype=torch.long)
    overlaps = box_iou(boxes, boxes)
    free = torch.ones(len(boxes), dtype=torch.bool)
    merged, counts = [], []
    for i in range(len(boxes)):
        if not free[i]:
            continue
        group = free & (overlaps[i] > iou_threshold)
        group[i] = True
        free &= ~group
        merged.append(boxes[group].mean(dim=0))
        counts.append(int(group.sum()))
    return torch.stack(merged), torch.tensor(counts)


def average_precision(
    predictions: Sequence[tuple[np.ndarray, np.ndarray]],
    truths: Sequence[np.ndarray],
    iou_threshold: float,
) -> float:
    """PASCAL-VOC-style average precision of one class over images: on each image the
    predicted boxes (``(boxes, scores)``), most confident first, each take the free true box
    they overlap most, if above ``iou_threshold`` (a true positive) or count as false; a true
    box never taken is a positive scored 0. ``sklearn``'s average precision of those pairs;
    0 when there is no true box."""
    from sklearn.metrics import average_precision_score

    labels: list[int] = []
    scores: list[float] = []
    for (boxes, confidence), true in zip(predictions, truths, strict=True):
        order = np.argsort(-np.asarray(confidence), kind="stable")
        free = np.ones(len(true), dtype=bool)
        overlaps = box_iou(torch.as_tensor(boxes, dtype=torch.float64).reshape(-1, 4),
                           torch.as_tensor(true, dtype=torch.float64).reshape(-1, 4)).numpy()  # fmt: skip
        for i in order:
            candidates = np.where(free & (overlaps[i] > iou_threshold), overlaps[i], -1.0)
            hit = len(true) > 0 and candidates.max() >= 0
            if hit:
                free[int(candidates.argmax())] = False
            labels.append(int(hit))
            scores.append(float(confidence[i]))
        labels += [1] * int(free.sum())
        scores += [0.0] * int(free.sum())
    if not any(labels):
        return 0.0
    if all(labels):
        return 1.0
    return float(average_precision_score(labels, scores))


def cxcywh_to_xyxy(boxes: torch.Tensor) -> torch.Tensor:
    cx, cy, w, h = boxes.unbind(-1)
    return torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], dim=-1)


def xyxy_to_cxcywh(boxes: torch.Tensor) -> torch.Tensor:
    x0, y0, x1, y1 = boxes.unbind(-1)
    return torch.stack([(x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0], dim=-1)
