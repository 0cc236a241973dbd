"""Lidar sweeps: frames (sensor, car, world), the bird's-eye-view raster, and the 3D IoU of
upright boxes."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from baselines.lidar import CHANNELS, Sweep, ego_points, iou_3d, raster, rotation, to_ego, to_world


def yaw_turn(yaw: float) -> list[float]:
    return [math.cos(yaw / 2), 0.0, 0.0, math.sin(yaw / 2)]


def test_boxes_go_to_the_car_and_back(tmp_path: Path) -> None:
    sweep = Sweep(tmp_path / "x.bin", rotation([1, 0, 0, 0]), np.zeros(3),
                  rotation(yaw_turn(math.pi / 2)), np.array([100.0, 50.0, -20.0]))  # fmt: skip
    world = np.array([[100.0, 60.0, -19.0, 2.0, 5.0, 1.7, math.pi / 2]])  # 10 m north of it
    ego = to_ego(world, sweep)
    assert ego[0, :3] == pytest.approx([10.0, 0.0, 1.0])  # the car faces north: ahead of it
    assert ego[0, 6] == pytest.approx(0.0)
    assert to_world(ego, sweep) == pytest.approx(world)


def test_points_are_moved_to_the_car_and_rasterised(tmp_path: Path) -> None:
    path = tmp_path / "sweep.bin"
    points = np.array([[1.0, 2.0, -1.0, 50.0, 0.0], [-3.0, 0.5, 0.0, 100.0, 1.0]], "<f4")
    path.write_bytes(points.tobytes() + b"\x00\x00")  # a torn last point is cut off
    sweep = Sweep(path, rotation([1, 0, 0, 0]), np.array([0.0, 0.0, 1.8]),
                  rotation([1, 0, 0, 0]), np.zeros(3))  # fmt: skip
    ego = ego_points(sweep)
    assert ego.shape == (2, 4) and ego[:, 2] == pytest.approx([0.8, 1.8])
    grid = raster(ego, range_m=4.0, resolution=1.0)
    assert grid.shape == (CHANNELS, 8, 8)
    assert grid[1, 6, 5] > 0 and grid[3, 4, 1] > 0  # slices 0.5-1 m and 1.5-2 m, in their cells
    assert grid[:, 0, 0].sum() == 0


def test_iou_3d_of_turned_shifted_and_stacked_boxes() -> None:
    car = np.array([0.0, 0.0, 1.0, 2.0, 4.0, 2.0, 0.0])
    assert iou_3d(car, car) == pytest.approx(1.0)
    assert iou_3d(car, car + np.array([0, 0, 0, 0, 0, 0, math.pi])) == pytest.approx(1.0)
    assert iou_3d(car, car + np.array([2.0, 0, 0, 0, 0, 0, 0])) == pytest.approx(
        1 / 3
    )  # half its length
    assert iou_3d(car, car + np.array([0, 0, 1.0, 0, 0, 0, 0])) == pytest.approx(
        1 / 3
    )  # half its height
    assert iou_3d(car, car + np.array([0, 0, 0, 0, 0, 0, math.pi / 2])) == pytest.approx(4 / 12)
    assert iou_3d(car, car + np.array([10.0, 0, 0, 0, 0, 0, 0])) == 0.0
