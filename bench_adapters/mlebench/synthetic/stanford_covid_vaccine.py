"""stanford-covid-vaccine: RNA sequences of 107 bases, their folded structure, and five
degradation rates at each of the first 68 positions.

A sequence's structure is a dot-bracket string of nested hairpins (stems of paired bases
closing loops); each base gets Kaggle's loop letter (``S`` paired, ``H`` hairpin loop, ``E``
free ends, ``X`` between two hairpins). The rates are higher where a base is unpaired and on
A and G than on C and U, plus noise that grows as the signal-to-noise ratio falls; all five
rates share that pattern with different scales. ``SN_filter`` is 1 when the signal-to-noise
ratio is above 1 (and the error columns are small).

Public: ``train.json`` and ``test.json`` (JSON lines in Kaggle's column order; ``index``
renumbered from 0 in each; test without the rates, errors, ``signal_to_noise`` and
``SN_filter``), ``sample_submission.csv`` (``id_seqpos`` and the five rates at 0). Private:
``test.csv`` (``id_seqpos``, the five rates and ``keep``: True on the 68 scored positions;
the other 39 have rates 0). Floats are written with 10 decimals, as upstream. As upstream,
test sequences are drawn among those passing ``SN_filter``; ids look like ``id_001f94081``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, hex_ids

LENGTH, SCORED = 107, 68
TARGETS = ["reactivity", "deg_Mg_pH10", "deg_pH10", "deg_Mg_50C", "deg_50C"]
ERRORS = ["reactivity_error", "deg_error_Mg_pH10", "deg_error_pH10", "deg_error_Mg_50C",
          "deg_error_50C"]  # fmt: skip
SCALES = [1.0, 1.1, 0.8, 1.0, 0.9]
BASE_RATE = {"A": 0.35, "G": 0.3, "C": 0.1, "U": 0.15}
TEST_COLUMNS = ["index", "id", "sequence", "structure", "predicted_loop_type", "seq_length",
                "seq_scored"]  # fmt: skip


def fold(rng: np.random.Generator) -> tuple[str, str]:
    """A dot-bracket structure of hairpins side by side, and its loop types."""
    marks, loops = ["."] * LENGTH, ["X"] * LENGTH
    i = int(rng.integers(2, 8))
    while True:
        stem, loop = int(rng.integers(4, 9)), int(rng.integers(3, 8))
        end = i + 2 * stem + loop
        if end >= LENGTH - 2:
            break
        for k in range(stem):
            marks[i + k], marks[end - 1 - k] = "(", ")"
            loops[i + k] = loops[end - 1 - k] = "S"
        loops[i + stem : end - stem] = ["H"] * loop
        i = end + int(rng.integers(1, 6))
    paired = [k for k, c in enumerate(marks) if c != "."]
    for k in range(LENGTH):  # the free ends, before the first and after the last pair
        if not paired or k < paired[0] or k > paired[-1]:
            loops[k] = "E"
    return "".join(marks), "".join(loops)


def record(rng: np.random.Generator, k: int, sequence_id: str) -> dict[str, object]:
    sequence = "".join(rng.choice(list("ACGU"), LENGTH))
    structure, loops = fold(rng)
    snr = float(rng.exponential(2.5))  # about two thirds pass SN_filter, as in Kaggle's data
    base = np.array([BASE_RATE[b] for b in sequence[:SCORED]])
    unpaired = np.array([c == "." for c in structure[:SCORED]], dtype=float)
    noise = 0.1 + 0.3 / max(snr, 0.3)
    out: dict[str, object] = {
        "index": k,
        "id": sequence_id,
        "sequence": sequence,
        "structure": structure,
        "predicted_loop_type": loops,
        "signal_to_noise": round(snr, 3),
        "SN_filter": int(snr > 1.0),
        "seq_length": LENGTH,
        "seq_scored": SCORED,
    }
    for name in ERRORS:
        out[name] = np.abs(rng.normal(noise, noise / 3, SCORED)).round(4).tolist()
    for name, scale in zip(TARGETS, SCALES, strict=True):
        values = scale * (0.1 + 0.7 * unpaired + base) + rng.normal(0, noise, SCORED)
        out[name] = values.round(4).tolist()
    return out


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    ids = [f"id_{h}" for h in hex_ids(rng, n, 9)]
    frame = pd.DataFrame([record(rng, k, sequence_id) for k, sequence_id in enumerate(ids)])
    passing = np.flatnonzero(frame["SN_filter"] > 0)
    if len(passing) < size.n_test:
        raise ValueError(f"only {len(passing)} sequences pass SN_filter for {size.n_test} test")
    is_test = np.zeros(n, dtype=bool)
    is_test[rng.choice(passing, size.n_test, replace=False)] = True
    train, test = frame[~is_test].copy(), frame[is_test].copy()
    rows = []
    for sequence_id, *rates in test[["id", *TARGETS]].itertuples(index=False):
        for j in range(LENGTH):
            scored = j < SCORED
            values = [float(r[j]) if scored else 0.0 for r in rates]
            rows.append([f"{sequence_id}_{j}", *values, scored])
    answers = pd.DataFrame(rows, columns=["id_seqpos", *TARGETS, "keep"])
    answers.to_csv(private / "test.csv", index=False, float_format="%.10f")
    train["index"] = range(len(train))
    train.to_json(public / "train.json", orient="records", lines=True)
    test = test[TEST_COLUMNS].assign(index=range(len(test)))
    test.to_json(public / "test.json", orient="records", lines=True)
    sample = answers[["id_seqpos"]].assign(**dict.fromkeys(TARGETS, 0.0))
    sample.to_csv(public / "sample_submission.csv", index=False, float_format="%.10f")
