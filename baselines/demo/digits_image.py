"""demo/digits-image: an RBF support-vector machine on the 64 pixel values, C chosen by CV.

    python -m baselines run --task demo/digits-image
    python -m baselines.demo.digits_image --public-dir ~/.cache/scaffolds/demo/v1/digits-image/prepared/public --out submission.csv

Reads public/train.csv (``id,label``), public/test.csv (``id``) and each image
public/{train,test}/<id>.png (8x8, 8-bit grayscale); writes ``id,label``. On images this small
the raw pixels, scaled to [0, 1], are the features; an RBF-kernel SVM is the classic strong
model for them. Metric: accuracy (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.svm import SVC

from baselines.kit import Budget, metric_line, standalone, write_submission

METRIC = "accuracy"
SEED = 0  # folds
N_FOLDS = 5  # stratified folds for choosing C
C_GRID = (1.0, 3.0, 10.0, 30.0)  # SVM penalties tried
SMOKE_ROWS = 150  # --smoke: train on this many images
TIME_BUDGET_S = 60.0  # the whole script; it needs a few seconds
THREADS = 1  # 500 images: one thread


def pixels(folder: Path, ids: pd.Series) -> np.ndarray:
    """One row of 64 values in [0, 1] per image."""
    return np.stack(
        [np.asarray(Image.open(folder / f"{i}.png"), dtype=np.float32).ravel() / 255 for i in ids]
    )


def main(
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float = TIME_BUDGET_S,
    threads: int = THREADS,
) -> float:
    budget = Budget(time_budget_s)
    train = pd.read_csv(public_dir / "train.csv")
    test = pd.read_csv(public_dir / "test.csv")
    if smoke:
        train = train.sample(n=min(SMOKE_ROWS, len(train)), random_state=SEED)
    x, y = pixels(public_dir / "train", train["id"]), train["label"].to_numpy()
    x_test = pixels(public_dir / "test", test["id"])
    budget.log(f"read {len(x):,} training and {len(x_test):,} test images")

    folds = StratifiedKFold(n_splits=N_FOLDS, shuffle=True, random_state=SEED)
    accuracies = {}
    for c in C_GRID:
        if budget.left() <= 0:
            break
        scores = cross_val_score(SVC(C=c), x, y, cv=folds, scoring="accuracy", n_jobs=threads)
        accuracies[c] = float(scores.mean())
        budget.log(f"C={c:g}: CV accuracy {accuracies[c]:.5f}")
    best_c = max(accuracies, key=lambda c: accuracies[c])
    metric_line(METRIC, accuracies[best_c], f"{N_FOLDS}-fold CV on {len(x):,} images, C={best_c:g}")

    labels = SVC(C=best_c).fit(x, y).predict(x_test)
    write_submission(pd.DataFrame({"id": test["id"], "label": labels}), out_path, budget)
    return accuracies[best_c]


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
