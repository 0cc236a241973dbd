"""mlsp-2013-birds: one logistic regression per species on the supplied features of each
recording (its 100-bin histogram of segment types, and the mean, maximum and spread of its
segments' 38 features), standardised, C chosen by cross-validated AUC.

    python -m baselines run --task mlebench/mlsp-2013-birds
    python -m baselines.mlebench.mlsp_2013_birds --public-dir DATA/mlsp-2013-birds/prepared/public --out submission.csv

Why: 258 recordings of 19 species are too few to train a network on the audio, while the
competition ships a segmentation of every recording with per-segment features: a species is a
kind of segment (its band, shape and length), so a regularised linear model on histograms and
pooled segment features is the strong small-data entry (the winners stacked such models). It
needs no GPU and runs in seconds. Reads essential_data/ (folds, labels) and
supplemental_data/{histogram_of_segments,segment_features}.txt; writes ``Id,Probability``
with ``Id = rec_id * 100 + species`` for every test recording and species. Metric: ROC-AUC
over all (recording, species) pairs, as the grader (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from baselines.kit import Budget, metric_line, standalone, write_submission

METRIC = "auc"
SEED = 0  # folds
N_SPECIES = 19
N_FOLDS = 5  # folds over recordings for choosing C and the reported metric
C_GRID = (0.03, 0.1, 0.3, 1.0)  # inverse L2 strengths tried
SMOKE_FOLDS = 3  # --smoke: fewer folds ...
SMOKE_C_GRID = (0.3,)  # ... and one C
TIME_BUDGET_S = 10 * 60.0  # the whole script; it needs seconds
THREADS = 1  # 322 recordings: one thread


def read_rows(path: Path) -> list[list[str]]:
    """The comma-separated lines after the header line."""
    lines = path.read_text().splitlines()[1:]
    return [line.rstrip(",").split(",") for line in lines if line.strip()]


def labels(essential: Path) -> dict[int, list[int] | None]:
    """rec_id -> its species, or None for a test recording (``?``)."""
    out: dict[int, list[int] | None] = {}
    for row in read_rows(essential / "rec_labels_test_hidden.txt"):
        rec, rest = int(row[0]), row[1:]
        out[rec] = None if rest == ["?"] else [int(k) for k in rest if k]
    return out


def features(supplemental: Path, recs: list[int]) -> np.ndarray:
    """Per recording: the segment histogram, the pooled segment features, the segment count."""
    hist = {
        int(r[0]): np.array(r[1:], float)
        for r in read_rows(supplemental / "histogram_of_segments.txt")
    }
    segments: dict[int, list[np.ndarray]] = {}
    for row in read_rows(supplemental / "segment_features.txt"):
        segments.setdefault(int(row[0]), []).append(np.array(row[2:], float))
    width = len(next(iter(segments.values()))[0]) if segments else 0
    rows = []
    for rec in recs:
        found = np.array(segments.get(rec, np.zeros((0, width))))
        pooled = (
            [found.mean(0), found.max(0), found.std(0)] if len(found) else [np.zeros(width)] * 3
        )
        rows.append(np.concatenate([hist.get(rec, np.zeros(100)), *pooled, [len(found)]]))
    return np.stack(rows)


def fit_predict(c: float, x: np.ndarray, y: np.ndarray, x_out: np.ndarray) -> np.ndarray:
    """(rows of ``x_out``, species) probabilities; a species never heard is given its prior."""
    out = np.zeros((len(x_out), N_SPECIES))
    for k in range(N_SPECIES):
        if 0 < y[:, k].sum() < len(y):
            model = make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=2000))
            out[:, k] = model.fit(x, y[:, k]).predict_proba(x_out)[:, 1]
        else:
            out[:, k] = y[:, k].mean()
    return out


def main(
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float = TIME_BUDGET_S,
    threads: int = THREADS,
) -> float:
    budget = Budget(time_budget_s)
    known = labels(public_dir / "essential_data")
    train_recs = [r for r, species in known.items() if species is not None]
    test = pd.read_csv(public_dir / "sample_submission.csv")
    test_recs = sorted(set(test["Id"] // 100))
    y = np.zeros((len(train_recs), N_SPECIES), int)
    for i, rec in enumerate(train_recs):
        y[i, known[rec]] = 1
    x = features(public_dir / "supplemental_data", train_recs)
    x_test = features(public_dir / "supplemental_data", test_recs)
    budget.log(f"{len(train_recs)} training and {len(test_recs)} test recordings; "
               f"{x.shape[1]} features; {y.sum()} species labels")  # fmt: skip

    folds = KFold(n_splits=SMOKE_FOLDS if smoke else N_FOLDS, shuffle=True, random_state=SEED)
    grid = SMOKE_C_GRID if smoke else C_GRID
    best_c, best = grid[0], -np.inf
    for c in grid:
        oof = np.zeros_like(y, dtype=float)
        for fit_rows, val_rows in folds.split(x):
            oof[val_rows] = fit_predict(c, x[fit_rows], y[fit_rows], x[val_rows])
        auc = roc_auc_score(y.ravel(), oof.ravel())
        budget.log(f"C={c:g}: CV AUC over (recording, species) pairs {auc:.5f}")
        if auc > best:
            best_c, best = c, auc
    metric_line(
        METRIC, best, f"{folds.n_splits}-fold CV on {len(train_recs)} recordings, C={best_c:g}"
    )

    prob = fit_predict(best_c, x, y, x_test)
    lookup = {
        rec * 100 + k: prob[i, k] for i, rec in enumerate(test_recs) for k in range(N_SPECIES)
    }
    write_submission(
        pd.DataFrame({"Id": test["Id"], "Probability": test["Id"].map(lookup)}), out_path, budget
    )
    return float(best)


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
