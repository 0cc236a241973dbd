"""Monte Carlo risk of the sample mean and the James-Stein estimator (the demo paper's study).

    python simulate.py --out results

One observation X ~ N(theta, I_d); theta has d equal coordinates and norm r. For each (d, r) the
risk E||estimate - theta||^2 is the mean squared error over N_REPLICATES draws. Writes
results/risks.csv (d, r, estimator, risk) and results/table1.md, results/table2.md.
Needs only numpy.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import numpy as np

SEED = 0  # one generator for the whole study
N_REPLICATES = 20_000  # draws of X per (d, r)
DIMENSIONS = (3, 10, 50)  # Experiment 2: the dimension sweep at theta = 0
NORMS = (0.0, 1.0, 2.0, 4.0, 8.0)  # Experiment 1: ||theta|| at d = 10
TABLE1_DIMENSION = 10


def mle(x: np.ndarray) -> np.ndarray:
    """The sample mean of one observation: X itself."""
    return x


def james_stein(x: np.ndarray) -> np.ndarray:
    """(1 - (d - 2) / ||X||^2) X, row by row."""
    d = x.shape[1]
    factor = 1.0 - (d - 2) / np.sum(x**2, axis=1, keepdims=True)
    return factor * x


ESTIMATORS = {"mle": mle, "james_stein": james_stein}


def risks(d: int, r: float, rng: np.random.Generator) -> dict[str, float]:
    theta = np.full(d, r / np.sqrt(d))
    x = theta + rng.standard_normal((N_REPLICATES, d))
    return {
        name: float(np.mean(np.sum((estimate(x) - theta) ** 2, axis=1)))
        for name, estimate in ESTIMATORS.items()
    }


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows]) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("results"))
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(SEED)
    settings = [(TABLE1_DIMENSION, r) for r in NORMS]
    settings += [(d, 0.0) for d in DIMENSIONS if d != TABLE1_DIMENSION]
    results = {}
    for d, r in settings:
        results[(d, r)] = risks(d, r, rng)
        print(f"d={d} r={r:g}: " + ", ".join(f"{k} {v:.3f}" for k, v in results[(d, r)].items()))

    with open(out / "risks.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["d", "r", "estimator", "risk"])
        for (d, r), by_name in sorted(results.items()):
            for name, risk in by_name.items():
                writer.writerow([d, r, name, f"{risk:.4f}"])

    rows = [
        [f"{r:g}", f"{results[(TABLE1_DIMENSION, r)]['mle']:.3f}",
         f"{results[(TABLE1_DIMENSION, r)]['james_stein']:.3f}"]
        for r in NORMS
    ]  # fmt: skip
    table1 = markdown_table(["r", "MLE", "James-Stein"], rows)
    (out / "table1.md").write_text(table1)
    rows = [
        [str(d), f"{results[(d, 0.0)]['james_stein']:.3f}",
         f"{results[(d, 0.0)]['james_stein'] / results[(d, 0.0)]['mle']:.3f}"]
        for d in DIMENSIONS
    ]  # fmt: skip
    (out / "table2.md").write_text(markdown_table(["d", "James-Stein risk", "JS / MLE"], rows))
    print(f"wrote {out}/risks.csv, {out}/table1.md, {out}/table2.md")


if __name__ == "__main__":
    main()
