"""image/hard's mAA: exact under any similarity transform, robust to outliers, and linear in the
number of images (a bounded number of candidate triplets instead of all C(n, 3))."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bench_adapters.tam import camera


def similar(points: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    q *= np.sign(np.linalg.det(q))
    return 0.3 * points @ q.T + np.array([5.0, -1.0, 2.0])


def test_umeyama_recovers_a_known_transform() -> None:
    rng = np.random.default_rng(1)
    src = rng.normal(size=(1, 10, 3))
    dst = similar(src[0], rng)[None]
    scale, rotation, translation = camera.umeyama(src, dst)
    mapped = scale[0] * src[0] @ rotation[0].T + translation[0]
    assert np.allclose(mapped, dst[0]) and np.isclose(np.linalg.det(rotation[0]), 1.0)


def test_small_scenes_try_every_triplet_large_ones_a_fixed_number() -> None:
    assert len(camera._triplets(6, "s")) == 20
    many = camera._triplets(1000, "scene")
    assert len(many) == camera.MAX_TRIPLETS < math.comb(1000, 3)
    assert np.array_equal(many, camera._triplets(1000, "scene"))  # seeded by the scene's name
    assert all(len(set(t)) == 3 for t in many[:50])


def test_a_thousand_images_with_outliers_and_unregistered_ones() -> None:
    rng = np.random.default_rng(2)
    truth = rng.uniform(-20, 20, size=(1000, 3))
    pred = similar(truth, rng)
    pred[:200] += rng.normal(0, 50, size=(200, 3))  # 20 % wild outliers
    pred[200:300] = np.nan  # 10 % unregistered
    score = camera.scene_maa(pred, truth, "big")
    assert score == pytest.approx(0.7, abs=0.005)


def test_fewer_than_three_registered_images_score_zero() -> None:
    truth = np.eye(3)
    pred = np.full((3, 3), np.nan)
    pred[0] = 0.0
    assert camera.scene_maa(pred, truth) == 0.0
    assert camera.scene_maa(truth.copy(), truth) == 1.0
