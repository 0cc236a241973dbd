"""Retrieval by embedding, for competitions whose classes are many and thin (hotels, whales,
herbarium species): a network fine-tuned as a classifier over the training classes gives each
image its pooled backbone features (the classifier head's input), L2-normalised; a test image
takes the labels of its nearest training images by cosine similarity, in the order of each
label's best neighbour.

Unlike the classifier's own head, neighbours need no example of a class to be seen often:
one training image of a class is enough to retrieve it, and a new gallery image (a hold-out
image added back, a new hotel) is used without retraining.

    gallery = embed(model, Batches(images, device), len(images), 64)
    query = embed(model, Batches(test_images, device), len(test_images), 64)
    similarity, neighbour = nearest(query, gallery, k=50, device=device)
    rankings = ranked_labels(similarity, neighbour, labels, k=5)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np
import torch

from baselines.torchkit import autocast, predict
from baselines.vision import Batches, Source, load_images


def embed(
    model: torch.nn.Module,
    batches: Batches,
    n_rows: int,
    batch_size: int,
    flips: Sequence[str] = ("",),
) -> np.ndarray:
    """(N, D) float32: each image's pooled backbone features, averaged over the flipped views
    in ``flips`` and L2-normalised."""
    model.eval()
    backbone = cast(torch.nn.Module, model.base_model)  # transformers: no classifier head

    def forward(rows: np.ndarray) -> torch.Tensor:
        with autocast(batches.device):
            views = [
                backbone(pixel_values=batches(rows, flip=f)).pooler_output.flatten(1).float()
                for f in flips
            ]
        return torch.nn.functional.normalize(torch.stack(views).mean(0), dim=1)

    return predict(forward, n_rows, batch_size)


def embed_sources(
    model: torch.nn.Module,
    sources: Sequence[Source],
    size: int,
    device: torch.device,
    batch_size: int,
    threads: int,
    log: Callable[[str], None],
    chunk: int = 20_000,
) -> np.ndarray:
    """``embed`` of image files too many to hold decoded at once (hundreds of thousands of
    test sheets): decoded ``chunk`` at a time, embedded, and let go."""
    parts = []
    for start in range(0, len(sources), chunk):
        images = load_images(sources[start : start + chunk], size, threads, lambda _: None)
        parts.append(embed(model, Batches(images, device), len(images), batch_size))
        log(f"embedded {start + len(images):,}/{len(sources):,} images")
    return np.concatenate(parts) if parts else np.zeros((0, 0), np.float32)


@torch.no_grad()
def nearest(
    query: np.ndarray,
    gallery: np.ndarray,
    k: int,
    device: torch.device | None = None,
    chunk: int = 2048,
) -> tuple[np.ndarray, np.ndarray]:
    """For each query row, its ``k`` most similar gallery rows (cosine similarity of
    normalised vectors): ``(similarity, index)``, both (Q, min(k, G)), most similar first.
    Computed on ``device`` in chunks of queries (half precision on a GPU)."""
    device = device or torch.device("cpu")
    dtype = torch.float16 if device.type == "cuda" else torch.float32
    g = torch.from_numpy(np.ascontiguousarray(gallery)).to(device, dtype)
    k = min(k, len(gallery))
    sims, index = [], []
    for start in range(0, len(query), chunk):
        q = torch.from_numpy(np.ascontiguousarray(query[start : start + chunk])).to(device, dtype)
        top = (q @ g.T).float().topk(k, dim=1)
        sims.append(top.values.cpu().numpy())
        index.append(top.indices.cpu().numpy())
    if not sims:
        return np.zeros((0, k), np.float32), np.zeros((0, k), np.int64)
    return np.concatenate(sims), np.concatenate(index)


def ranked_labels(
    similarity: np.ndarray, index: np.ndarray, labels: Sequence[Any] | np.ndarray, k: int
) -> list[list[tuple[Any, float]]]:
    """Each query's first ``k`` distinct labels among its neighbours, with the similarity of
    the label's best neighbour, most similar first (fewer when the neighbours hold fewer)."""
    labels = np.asarray(labels)
    out = []
    for sims, rows in zip(similarity, index, strict=True):
        seen: dict[Any, float] = {}
        for sim, row in zip(sims, rows, strict=True):
            label = labels[row].item() if hasattr(labels[row], "item") else labels[row]
            if label not in seen:
                seen[label] = float(sim)
                if len(seen) == k:
                    break
        out.append(list(seen.items()))
    return out


def map_at_k(rankings: Sequence[Sequence[Any]], truth: Sequence[Any], k: int = 5) -> float:
    """Mean average precision at ``k`` with one true label a row: 1 / (its rank) when it is
    among the first ``k`` guesses, else 0 (Kaggle's MAP@5 for whales and hotels)."""
    scores = [
        next((1.0 / (rank + 1) for rank, g in enumerate(guesses[:k]) if g == true), 0.0)
        for guesses, true in zip(rankings, truth, strict=True)
    ]
    return float(np.mean(scores)) if scores else 0.0
