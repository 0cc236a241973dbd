"""baselines/retrieval.py: nearest neighbours by cosine similarity, the distinct labels they
rank, MAP@k, and the embedding of a real (random-weight) backbone: normalised, and with both
flips averaged, the same for an image and its mirror."""

from __future__ import annotations

import numpy as np
import torch

from baselines.retrieval import embed, map_at_k, nearest, ranked_labels
from baselines.vision import Batches, image_classifier


def unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def test_nearest_agrees_with_a_full_sort_in_any_chunking() -> None:
    rng = np.random.default_rng(0)
    gallery, query = unit(rng.normal(size=(300, 16))), unit(rng.normal(size=(37, 16)))
    expected = np.argsort(-(query @ gallery.T), axis=1)[:, :7]
    for chunk in (5, 2048):
        similarity, index = nearest(query, gallery, 7, chunk=chunk)
        assert (index == expected).all()
        assert np.allclose(similarity, np.take_along_axis(query @ gallery.T, index, axis=1))
        assert (np.diff(similarity, axis=1) <= 1e-6).all()
    assert nearest(query, gallery[:3], 7)[1].shape == (37, 3)  # k capped by the gallery


def test_ranked_labels_are_distinct_in_the_order_of_their_best_neighbour() -> None:
    similarity = np.array([[0.9, 0.8, 0.7, 0.6, 0.5]])
    index = np.array([[4, 0, 3, 1, 2]])
    labels = np.array(["b", "a", "c", "b", "a"])
    assert ranked_labels(similarity, index, labels, 5) == [[("a", 0.9), ("b", 0.8), ("c", 0.5)]]
    assert ranked_labels(similarity, index, labels, 2) == [[("a", 0.9), ("b", 0.8)]]


def test_map_at_k_scores_the_rank_of_the_one_true_label() -> None:
    rankings = [["a", "b"], ["x", "y", "z"], ["q"], ["1", "2", "3", "4", "5", "6"]]
    assert map_at_k(rankings, ["a", "z", "w", "6"], k=5) == (1 + 1 / 3 + 0 + 0) / 4


def test_embeddings_are_normalised_backbone_features_averaged_over_flips() -> None:
    torch.manual_seed(0)
    model = image_classifier("microsoft/resnet-18", 3, "none")
    images = np.random.default_rng(1).integers(0, 255, (5, 32, 32, 3), dtype=np.uint8)
    batches = Batches(images, torch.device("cpu"))
    mirrored = Batches(images[:, :, ::-1].copy(), torch.device("cpu"))
    plain, plain_mirrored = embed(model, batches, 5, 2), embed(model, mirrored, 5, 3)
    assert plain.shape == (5, 512) and np.allclose(np.linalg.norm(plain, axis=1), 1, atol=1e-5)
    assert not np.allclose(plain, plain_mirrored, atol=1e-3)  # a random net sees the flip
    both = embed(model, batches, 5, 4, flips=("", "h"))
    assert np.allclose(both, embed(model, mirrored, 5, 5, flips=("", "h")), atol=1e-5)
