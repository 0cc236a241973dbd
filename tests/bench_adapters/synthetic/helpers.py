"""What the per-competition generator tests share: the layout of a prepared folder, a quick
learnability check, and image statistics."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import cross_val_predict


def prepared(data: Path, cid: str) -> Path:
    return data / cid / "prepared"


def layout(folder: Path) -> dict[str, int]:
    """``public/x.csv`` -> 1; a folder -> how many files it holds; a zip -> its members."""
    out = {}
    for path in sorted(folder.glob("*/*")):
        name = path.relative_to(folder).as_posix()
        if path.is_dir():
            out[name + "/"] = sum(1 for p in path.rglob("*") if p.is_file())
        elif path.suffix == ".zip":
            out[name] = len(zipfile.ZipFile(path).namelist())
        else:
            out[name] = 1
    return out


def pixels(path: Path, size: int = 32) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB").resize((size, size)), np.float32) / 255


def colour_features(paths: list[Path]) -> np.ndarray:
    """Per image: mean and spread of each channel, over the whole image and its centre."""
    rows = []
    for path in paths:
        x = pixels(path)
        centre = x[8:24, 8:24]
        rows.append(
            np.concatenate([x.mean((0, 1)), x.std((0, 1)), centre.mean((0, 1)), centre.std((0, 1))])
        )
    return np.stack(rows)


def cv_auc(features: np.ndarray, labels: np.ndarray) -> float:
    """Cross-validated ROC-AUC of a logistic regression: does a simple model find a signal?"""
    prob = cross_val_predict(
        LogisticRegression(max_iter=2000), features, labels, cv=3, method="predict_proba"
    )
    return float(roc_auc_score(labels, prob[:, 1]))


def read(folder: Path, relative: str) -> pd.DataFrame:
    return pd.read_csv(folder / relative)
