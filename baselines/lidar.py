"""Lidar sweeps in Lyft's nuScenes-style tables, for the 3D detection baseline: where each
sample's sweep is, its points in the car's frame, a bird's-eye-view raster of them, boxes
moved between the world and the car's frame, and the 3D IoU of upright boxes.

Frames: a sweep's points are in the lidar's frame; ``calibrated_sensor`` (rotation as a
``w, x, y, z`` quaternion, translation) puts them in the car's ("ego") frame, ``ego_pose`` puts
the car in the world, where ``train.csv``'s boxes are (``x y z width length height yaw``,
yaw turning the length axis from the x axis). The ego frame has x forward, y left, z up from
the road, so its bird's-eye view is the x-y plane.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

HEIGHTS = (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0)
"""Edges of the height slices (m above the road) counted in the raster's channels."""
CHANNELS = len(HEIGHTS) - 1 + 2
"""Points per height slice, then the highest point and the mean intensity, per cell."""


def rotation(quaternion: list[float]) -> np.ndarray:
    """The 3x3 rotation of a unit quaternion ``(w, x, y, z)``."""
    w, x, y, z = quaternion
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


@dataclass(frozen=True)
class Sweep:
    """One sample's lidar sweep: its file and the two transforms to the world."""

    path: Path
    sensor_rotation: np.ndarray
    sensor_translation: np.ndarray
    ego_rotation: np.ndarray
    ego_translation: np.ndarray

    @property
    def ego_yaw(self) -> float:
        return math.atan2(self.ego_rotation[1, 0], self.ego_rotation[0, 0])


def sweeps(tables: Path, lidar_files: Path) -> dict[str, Sweep]:
    """Sample token -> its top lidar's key-frame sweep (any lidar where the top one is
    missing), from the tables in ``tables`` and the ``.bin`` files in ``lidar_files``."""

    def table(name: str) -> dict[str, dict[str, Any]]:
        return {row["token"]: row for row in json.loads((tables / f"{name}.json").read_text())}

    sensors, calibrations, poses = table("sensor"), table("calibrated_sensor"), table("ego_pose")
    out: dict[str, tuple[bool, Sweep]] = {}
    for data in json.loads((tables / "sample_data.json").read_text()):
        if data.get("fileformat") != "bin" or not data.get("is_key_frame", True):
            continue
        calibration = calibrations[data["calibrated_sensor_token"]]
        channel = sensors.get(calibration["sensor_token"], {}).get("channel", "")
        pose = poses[data["ego_pose_token"]]
        sweep = Sweep(
            lidar_files / Path(data["filename"]).name,
            rotation(calibration["rotation"]),
            np.array(calibration["translation"], np.float64),
            rotation(pose["rotation"]),
            np.array(pose["translation"], np.float64),
        )
        top = channel == "LIDAR_TOP"
        if data["sample_token"] not in out or (top and not out[data["sample_token"]][0]):
            out[data["sample_token"]] = (top, sweep)
    return {token: sweep for token, (_, sweep) in out.items()}


def ego_points(sweep: Sweep) -> np.ndarray:
    """The sweep's points in the ego frame: ``(N, 4)`` x, y, z, intensity (a file whose size
    is not a whole number of 5-float points is cut to the last whole one)."""
    raw = np.fromfile(sweep.path, dtype="<f4")
    points = raw[: len(raw) // 5 * 5].reshape(-1, 5).astype(np.float64)
    xyz = points[:, :3] @ sweep.sensor_rotation.T + sweep.sensor_translation
    return np.column_stack([xyz, points[:, 3]])


def raster(points: np.ndarray, range_m: float, resolution: float) -> np.ndarray:
    """A bird's-eye view of ego-frame points within ``range_m`` of the car: ``(CHANNELS, S, S)``
    uint8, ``S = 2 range_m / resolution``; cell ``(row, col)`` covers
    ``x = col * resolution - range_m``, ``y = row * resolution - range_m``."""
    side = round(2 * range_m / resolution)
    col = np.floor((points[:, 0] + range_m) / resolution).astype(np.int64)
    row = np.floor((points[:, 1] + range_m) / resolution).astype(np.int64)
    z, intensity = points[:, 2], points[:, 3]
    inside = (col >= 0) & (col < side) & (row >= 0) & (row < side)
    col, row, z, intensity = col[inside], row[inside], z[inside], intensity[inside]
    out = np.zeros((CHANNELS, side, side), np.float32)
    level = np.digitize(z, HEIGHTS) - 1
    counted = (level >= 0) & (level < len(HEIGHTS) - 1)
    np.add.at(out, (level[counted], row[counted], col[counted]), 1.0)
    out[: len(HEIGHTS) - 1] = np.minimum(out[: len(HEIGHTS) - 1] * 32, 255)  # 8 points: full
    top = np.full((side, side), -np.inf)
    np.maximum.at(top, (row, col), z)
    out[-2] = np.where(np.isfinite(top), np.clip((top + 1) * 40, 0, 255), 0)  # -1 m to 5.4 m
    total = np.zeros((side, side))
    count = np.zeros((side, side))
    np.add.at(total, (row, col), intensity)
    np.add.at(count, (row, col), 1)
    out[-1] = np.clip(total / np.maximum(count, 1) * 2.55, 0, 255)  # intensity 0 to 100
    return out.astype(np.uint8)


def to_ego(boxes: np.ndarray, sweep: Sweep) -> np.ndarray:
    """World boxes ``(N, 7)`` (x, y, z, width, length, height, yaw) in the ego frame."""
    out = boxes.copy()
    out[:, :3] = (boxes[:, :3] - sweep.ego_translation) @ sweep.ego_rotation
    out[:, 6] = boxes[:, 6] - sweep.ego_yaw
    return out


def to_world(boxes: np.ndarray, sweep: Sweep) -> np.ndarray:
    """Ego-frame boxes ``(N, 7)`` back in the world frame."""
    out = boxes.copy()
    out[:, :3] = boxes[:, :3] @ sweep.ego_rotation.T + sweep.ego_translation
    out[:, 6] = boxes[:, 6] + sweep.ego_yaw
    return out


def footprint(box: np.ndarray) -> np.ndarray:
    """The four corners (x, y) of an upright box's footprint, anticlockwise."""
    x, y, _, width, length, _, yaw = box
    along = np.array([math.cos(yaw), math.sin(yaw)]) * length / 2
    across = np.array([-math.sin(yaw), math.cos(yaw)]) * width / 2
    centre = np.array([x, y])
    return np.array([centre + along + across, centre - along + across,
                     centre - along - across, centre + along - across])  # fmt: skip


def clipped_area(subject: np.ndarray, clip: np.ndarray) -> float:
    """Area of convex polygon ``subject`` inside convex polygon ``clip`` (both anticlockwise),
    by Sutherland-Hodgman clipping."""
    polygon = list(subject)
    for k in range(len(clip)):
        a, b = clip[k], clip[(k + 1) % len(clip)]
        edge = b - a

        def inside(p: np.ndarray, a: np.ndarray = a, edge: np.ndarray = edge) -> bool:
            return edge[0] * (p[1] - a[1]) - edge[1] * (p[0] - a[0]) >= 0

        kept: list[np.ndarray] = []
        for i in range(len(polygon)):
            p, q = polygon[i], polygon[(i + 1) % len(polygon)]
            if inside(p):
                kept.append(p)
            if inside(p) != inside(q):
                d = q - p
                t = (edge[0] * (a[1] - p[1]) - edge[1] * (a[0] - p[0])) / (
                    edge[0] * d[1] - edge[1] * d[0]
                )
                kept.append(p + t * d)
        polygon = kept
        if not polygon:
            return 0.0
    xs, ys = np.array(polygon).T
    return float(abs(np.dot(xs, np.roll(ys, -1)) - np.dot(ys, np.roll(xs, -1))) / 2)


def iou_3d(a: np.ndarray, b: np.ndarray) -> float:
    """3D IoU of two upright boxes ``(x, y, z, width, length, height, yaw)``, z their centre."""
    base = clipped_area(footprint(a), footprint(b))
    low, high = max(a[2] - a[5] / 2, b[2] - b[5] / 2), min(a[2] + a[5] / 2, b[2] + b[5] / 2)
    inter = base * max(0.0, high - low)
    union = a[3] * a[4] * a[5] + b[3] * b[4] * b[5] - inter
    return inter / union if union > 0 else 0.0
