"""us-patent-phrase-to-phrase-matching: pairs of short patent phrases (an ``anchor`` and a
``target``) in a patent class (``context``, a CPC code such as ``H04``), with a similarity
``score`` of 0, 0.25, 0.5, 0.75 or 1. The more words a target shares with its anchor, or with
the anchor's family of related words, the higher the score: the signal a model learns.

Public: ``train.csv`` (``id,anchor,target,context,score``), ``test.csv`` (without
``score``) and ``sample_submission.csv`` (``id,score`` = 0). Private: ``test.csv`` (the test
rows with ``score``). Ids are 16 hex digits; a random tenth of the pairs is the test set, as
upstream's split.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, hex_ids

FAMILIES = [
    ["signal", "transmission", "carrier", "frequency", "channel", "antenna"],
    ["engine", "piston", "cylinder", "crank", "combustion", "valve"],
    ["polymer", "resin", "coating", "layer", "film", "adhesive"],
    ["protein", "cell", "antibody", "enzyme", "receptor", "gene"],
    ["circuit", "voltage", "transistor", "current", "capacitor", "switch"],
    ["wheel", "axle", "brake", "vehicle", "tyre", "suspension"],
    ["lens", "optical", "light", "beam", "mirror", "laser"],
    ["fluid", "pump", "pipe", "pressure", "flow", "nozzle"],
]
CONTEXTS = ["H04", "F02", "C08", "C07", "H01", "B60", "G02", "F16"]
MODIFIERS = ["first", "main", "upper", "inner", "outer", "small", "rotary", "fixed", "thin"]
SCORES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])


def pair(rng: np.random.Generator, family: int, score: float) -> tuple[str, str]:
    """An anchor and a target sharing words with it as ``score`` says."""
    words = FAMILIES[family]
    anchor = [str(rng.choice(MODIFIERS)), *rng.choice(words, 2, replace=False).tolist()]
    if score == 1.0:
        target = [anchor[1], anchor[2]]
    elif score == 0.75:
        target = [anchor[1], anchor[2], str(rng.choice(MODIFIERS))]
    elif score == 0.5:
        target = [str(rng.choice(MODIFIERS)), anchor[2]]
    elif score == 0.25:
        target = [str(rng.choice([w for w in words if w not in anchor]))]
    else:
        other = FAMILIES[(family + int(rng.integers(1, len(FAMILIES)))) % len(FAMILIES)]
        target = rng.choice(other, 2, replace=False).tolist()
    return " ".join(anchor), " ".join(target)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    families = rng.integers(0, len(FAMILIES), n)
    scores = rng.choice(SCORES, n, p=[0.2, 0.32, 0.34, 0.11, 0.03])
    pairs = [pair(rng, int(f), float(s)) for f, s in zip(families, scores, strict=True)]
    frame = pd.DataFrame(
        {
            "id": hex_ids(rng, n, 16),
            "anchor": [a for a, _ in pairs],
            "target": [t for _, t in pairs],
            "context": np.array(CONTEXTS)[families],
            "score": scores,
        }
    )
    order = rng.permutation(n)  # train_test_split: test first, in shuffled order
    test, train = frame.iloc[order[: size.n_test]], frame.iloc[order[size.n_test :]]
    train.to_csv(public / "train.csv", index=False)
    test.to_csv(private / "test.csv", index=False)
    test.drop(columns=["score"]).to_csv(public / "test.csv", index=False)
    test[["id"]].assign(score=0).to_csv(public / "sample_submission.csv", index=False)
