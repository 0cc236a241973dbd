"""Upright 3D boxes as the Lyft challenge's evaluation (``mAP_evaluation.Box3D``) sees them:
their checks, their footprints and their IoUs, for many boxes at once.

A box is a centre, a size (width, length, height) and a yaw, whose rotation is the unit
quaternion pyquaternion makes of it (``Quaternion(axis=[0, 0, 1], radians=yaw)``). The
footprint is the rectangle of ``length`` along the rotation matrix's first column and
``width`` across it, built corner by corner with the reference's arithmetic (so coordinates
agree to the last bit) and intersected by GEOS through shapely; the IoU is the footprint
overlap times the overlap of the z ranges, over the union of the volumes, clipped to [0, 1].
The rotation matrix comes from pyquaternion itself: its 4x4 product goes through BLAS, whose
fused multiply-adds decide the last bit that a boxes-touching-at-the-threshold case turns on.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from functools import lru_cache

import numpy as np


@lru_cache(maxsize=65_536)
def _rotation(bits: bytes) -> tuple[tuple[float, ...], float, float]:
    """(quaternion, cos, sin) of one yaw, given as its 8 bytes (so -0.0 is not 0.0)."""
    from pyquaternion import Quaternion

    (yaw,) = struct.unpack("<d", bits)
    rotation = tuple(float(v) for v in Quaternion(axis=[0, 0, 1], radians=yaw))
    if any(math.isnan(v) for v in rotation):
        return rotation, math.nan, math.nan
    matrix = Quaternion(list(rotation)).rotation_matrix
    return rotation, float(matrix[0, 0]), float(matrix[1, 0])


def rotation(yaw: float) -> tuple[tuple[float, ...], float, float]:
    """The quaternion of ``yaw`` and its matrix's cos and sin entries (a ``math`` error for an
    infinite yaw, as pyquaternion raises)."""
    if math.isnan(yaw):
        return _rotation.__wrapped__(struct.pack("<d", yaw))
    return _rotation(struct.pack("<d", yaw))


@dataclass
class Boxes:
    """Many boxes: each field an array with one entry a box."""

    x: np.ndarray
    y: np.ndarray
    z: np.ndarray
    width: np.ndarray
    length: np.ndarray
    height: np.ndarray
    rotation: np.ndarray
    """(n, 4) quaternions."""
    cos: np.ndarray
    sin: np.ndarray

    def __len__(self) -> int:
        return len(self.x)

    def take(self, index: np.ndarray) -> Boxes:
        return Boxes(*(getattr(self, f)[index] for f in self.__dataclass_fields__))

    def check(self) -> None:
        """``Box3D``'s checks: no NaN in the centre, size or rotation, every size above 0, and
        a footprint whose corners are at right angles (``np.isclose`` to 0)."""
        centre = np.stack([self.x, self.y, self.z])
        size = np.stack([self.width, self.length, self.height])
        if np.isnan(centre).any():
            raise ValueError("Translation may not be NaN!")
        if np.isnan(size).any():
            raise ValueError("Size may not be NaN!")
        if np.isnan(self.rotation).any():
            raise ValueError("Rotation may not be NaN!")
        if not (size > 0).all():
            raise AssertionError("every size must be above 0")
        p = self.corners()
        for a, b, c in ((0, 1, 3), (1, 0, 2), (2, 1, 3), (3, 0, 2)):
            dot = (p[b][0] - p[a][0]) * (p[c][0] - p[a][0]) + (p[b][1] - p[a][1]) * (
                p[c][1] - p[a][1]
            )
            if not np.isclose(dot, 0).all():
                raise AssertionError("the footprint's corners are not at right angles")

    def corners(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """The footprint's four corners, with the reference's order of operations."""
        half_l_cos = self.length / 2 * self.cos
        half_w_sin = self.width / 2 * self.sin
        half_l_sin = self.length / 2 * self.sin
        half_w_cos = self.width / 2 * self.cos
        return [
            (self.x + half_l_cos + half_w_sin, self.y + half_l_sin - half_w_cos),
            (self.x + half_l_cos - half_w_sin, self.y + half_l_sin + half_w_cos),
            (self.x - half_l_cos - half_w_sin, self.y - half_l_sin + half_w_cos),
            (self.x - half_l_cos + half_w_sin, self.y - half_l_sin - half_w_cos),
        ]

    def footprints(self) -> np.ndarray:
        """shapely polygons (closed rings of the four corners)."""
        import shapely

        p = self.corners()
        xs = np.stack([p[0][0], p[1][0], p[2][0], p[3][0], p[0][0]], axis=1)
        ys = np.stack([p[0][1], p[1][1], p[2][1], p[3][1], p[0][1]], axis=1)
        return shapely.polygons(np.stack([xs, ys], axis=2))

    def bounds(self) -> np.ndarray:
        """(n, 4) footprint bounds: x_min, y_min, x_max, y_max."""
        p = self.corners()
        xs, ys = np.stack([c[0] for c in p]), np.stack([c[1] for c in p])
        return np.stack([xs.min(0), ys.min(0), xs.max(0), ys.max(0)], axis=1)

    def volume(self) -> np.ndarray:
        return self.width * self.length * self.height

    def z_range(self) -> tuple[np.ndarray, np.ndarray]:
        return self.z - self.height / 2, self.z + self.height / 2


def pair_ious(found: Boxes, truth: Boxes, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """The IoU of ``found[i[k]]`` with ``truth[j[k]]`` for each k, as the reference's
    ``found_box.get_iou(truth_box)``. Footprints whose bounds are apart (not even touching)
    overlap in nothing: GEOS computes only the others."""
    import shapely

    iou = np.zeros(len(i))
    fb, tb = found.bounds()[i], truth.bounds()[j]
    near = np.flatnonzero(
        (fb[:, 0] <= tb[:, 2])
        & (tb[:, 0] <= fb[:, 2])
        & (fb[:, 1] <= tb[:, 3])
        & (tb[:, 1] <= fb[:, 3])
    )
    if not len(near):
        return iou
    fi, tj = i[near], j[near]
    area = shapely.area(shapely.intersection(found.footprints()[fi], truth.footprints()[tj]))
    f_low, f_high = found.z_range()
    t_low, t_high = truth.z_range()
    height = np.maximum(0, np.minimum(t_high[tj], f_high[fi]) - np.maximum(t_low[tj], f_low[fi]))
    overlap = height * area
    union = found.volume()[fi] + truth.volume()[tj] - overlap
    iou[near] = np.clip(overlap / union, 0, 1)
    return iou
