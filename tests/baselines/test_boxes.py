"""Box geometry in torch: IoU, non-maximum suppression, merging readers' boxes, and the
validation's average precision."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from baselines.boxes import (
    average_precision,
    batched_nms,
    box_iou,
    cxcywh_to_xyxy,
    merge_boxes,
    nms,
    xyxy_to_cxcywh,
)


def test_iou_of_overlapping_touching_and_reversed_boxes() -> None:
    a = torch.tensor([[0.0, 0, 10, 10]])
    b = torch.tensor([[5.0, 0, 15, 10], [10, 0, 20, 10], [10.0, 10, 0, 0], [0, 0, 10, 10]])
    assert box_iou(a, b)[0].tolist() == pytest.approx([1 / 3, 0, 0, 1])


def test_nms_keeps_the_best_of_each_cluster_per_class() -> None:
    boxes = torch.tensor([[0.0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30], [0, 0, 10, 10]])
    scores = torch.tensor([0.8, 0.9, 0.5, 0.7])
    assert nms(boxes, scores, 0.5).tolist() == [1, 2]
    classes = torch.tensor([0, 0, 0, 1])  # the last box is another class: it stays
    assert batched_nms(boxes, scores, classes, 0.5).tolist() == [1, 3, 2]
    assert nms(boxes[:0], scores[:0], 0.5).tolist() == []


def test_merge_boxes_averages_each_group() -> None:
    boxes = torch.tensor([[0.0, 0, 10, 10], [2, 0, 12, 10], [50, 50, 60, 60]])
    merged, counts = merge_boxes(boxes, 0.4)
    assert merged.tolist() == [[1.0, 0.0, 11.0, 10.0], [50.0, 50.0, 60.0, 60.0]]
    assert counts.tolist() == [2, 1]


def test_centre_size_round_trip() -> None:
    boxes = torch.tensor([[1.0, 2, 5, 10]])
    assert torch.allclose(cxcywh_to_xyxy(xyxy_to_cxcywh(boxes)), boxes)


def test_average_precision_ranks_hits_before_misses() -> None:
    truth = [np.array([[0.0, 0, 10, 10]]), np.array([[0.0, 0, 10, 10]])]
    hit, miss = np.array([[0.0, 0, 10, 10]]), np.array([[50.0, 50, 60, 60]])
    good = [(hit, np.array([0.9])), (miss, np.array([0.1]))]
    bad = [(hit, np.array([0.1])), (miss, np.array([0.9]))]
    assert average_precision(good, truth, 0.5) > average_precision(bad, truth, 0.5)
    perfect = [(hit, np.array([0.9])), (hit, np.array([0.8]))]
    assert average_precision(perfect, truth, 0.5) == 1.0
    assert average_precision(good, [t[:0] for t in truth], 0.5) == 0.0
