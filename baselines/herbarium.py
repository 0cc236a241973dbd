"""What the three Herbarium baselines (2020, 2021, 2022) share: a sample of the sheets of every
species, a backbone fine-tuned as a species classifier, and each test sheet given the species
of its nearest training sheet by embedding (``retrieval``).

The editions differ only in their files' layout, so each script reads its own into lists of
image files and species and passes its defaults as a ``Recipe``::

    score, predicted = classify(train_files, species, test_files, SMOKE if smoke else RECIPE,
                                budget=budget, device=where, pretrained=pretrained,
                                threads=threads, seed=SEED)

Why neighbours and not the classifier's head: the species are tens of thousands, half of
them with a handful of sheets; the head learns the common ones, while one sheet of a rare
species in the gallery is enough for its neighbours to find it (macro-F1 weighs every species
alike). Why a sample: 0.7-1.8 million sheets neither decode nor train in the budget; up to
``max_per_species`` sheets of each species keep every species in the gallery and cut the
common ones, which the metric does not favour.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from sklearn.metrics import f1_score

from baselines.kit import Budget, metric_line, stratified_holdout
from baselines.retrieval import embed, embed_sources, nearest
from baselines.torchkit import autocast, fit
from baselines.vision import Batches, Source, describe, image_classifier, load_images


@dataclass(frozen=True)
class Recipe:
    """How a Herbarium script trains: its network, image side, passes, batch and rate, and
    how many sheets it samples."""

    hub_id: str
    image_size: int
    epochs: float
    batch_size: int
    lr: float
    label_smoothing: float
    holdout: float
    max_per_species: int
    max_train: int
    max_steps: int | None = None
    reserve_s: float = 60.0


def sample_sheets(
    species: np.ndarray, max_per_species: int, max_train: int, seed: int
) -> np.ndarray:
    """Row numbers of at most ``max_per_species`` sheets of each species, then of at most
    ``max_train`` in all (every species keeps one sheet while the cap allows), sorted."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(species))
    rank = pd.Series(species[order]).groupby(species[order]).cumcount().to_numpy()
    kept = order[rank < max_per_species]
    kept = kept[np.argsort(rank[rank < max_per_species], kind="stable")]  # firsts first
    return np.sort(kept[:max_train])


def classify(
    train_files: Sequence[Source],
    species: np.ndarray,
    test_files: Sequence[Source],
    recipe: Recipe,
    *,
    budget: Budget,
    device: torch.device,
    pretrained: str | None,
    threads: int,
    seed: int,
) -> tuple[float, np.ndarray]:
    """The hold-out's macro-F1 (printed as the metric line) and each test sheet's species."""
    rows = sample_sheets(species, recipe.max_per_species, recipe.max_train, seed)
    species = species[rows]
    budget.log(
        f"sampled {len(rows):,} of {len(train_files):,} sheets, at most "
        f"{recipe.max_per_species} of each of {len(np.unique(species)):,} species"
    )
    images = load_images([train_files[r] for r in rows], recipe.image_size, threads, budget.log)
    classes, y = np.unique(species, return_inverse=True)
    fit_rows, val_rows = stratified_holdout(y, recipe.holdout, seed)

    model = image_classifier(recipe.hub_id, len(classes), pretrained).to(device)
    budget.log(describe(model, recipe.hub_id, pretrained))
    batches = Batches(images, device, flips="h", seed=seed)
    targets = torch.tensor(y, device=device)

    def loss_of(batch: np.ndarray) -> torch.Tensor:
        picked = fit_rows[batch]
        with autocast(device):
            logits = model(pixel_values=batches(picked, train=True)).logits
        return F.cross_entropy(
            logits.float(), targets[picked], label_smoothing=recipe.label_smoothing
        )

    fit(
        model,
        len(fit_rows),
        loss_of,
        epochs=recipe.epochs,
        batch_size=recipe.batch_size,
        lr=recipe.lr,
        budget=budget,
        max_steps=recipe.max_steps,
        predict_rows=len(images) + len(test_files),
        reserve_s=recipe.reserve_s,
        seed=seed,
    )

    gallery = embed(model, Batches(images, device), len(images), recipe.batch_size)
    _, neighbour = nearest(gallery[val_rows], gallery[fit_rows], 1, device)
    val_pred = classes[y[fit_rows][neighbour[:, 0]]]
    score = float(f1_score(classes[y[val_rows]], val_pred, average="macro"))
    metric_line(
        "macro_f1",
        score,
        f"{len(val_rows):,} held-out sheets, nearest of {len(fit_rows):,} by embedding",
    )
    query = embed_sources(
        model, test_files, recipe.image_size, device, recipe.batch_size, threads, budget.log
    )
    _, neighbour = nearest(query, gallery, 1, device)  # the held-out sheets join the gallery
    return score, species[neighbour[:, 0]]
