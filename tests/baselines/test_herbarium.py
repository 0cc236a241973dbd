"""baselines/herbarium.py: the sample of sheets keeps every species while its cap allows."""

from __future__ import annotations

import numpy as np

from baselines.herbarium import sample_sheets


def test_the_sample_caps_each_species_and_keeps_the_rare_ones_first() -> None:
    species = np.array([0] * 50 + [1] * 3 + [2] + [3] * 7)
    rows = sample_sheets(species, max_per_species=4, max_train=100, seed=0)
    counts = np.bincount(species[rows])
    assert counts.tolist() == [4, 3, 1, 4] and (np.diff(rows) > 0).all()
    few = sample_sheets(species, max_per_species=4, max_train=5, seed=0)
    assert len(few) == 5 and set(species[few]) == {0, 1, 2, 3}  # one of each, then seconds
    assert (sample_sheets(species, 4, 100, seed=0) == rows).all()  # the seed fixes it
