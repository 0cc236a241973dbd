"""Plagiarism on pairs written for the test: a copy with renamed variables, one with its
functions reordered (and renamed), a notebook of the original, an independent solution to the
same task, and unrelated code; the command's JSON, exit codes and fingerprint cache."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from scaffolds.monitor.fingerprint import WINDOW, K, fingerprints, kgram_hashes, tokens, winnow
from scaffolds.monitor.plagiarism import compare, default_cache, similarity

ORIGINAL = """import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.model_selection import KFold


def load(path):
    frame = pd.read_csv(path)
    frame["ratio"] = frame["fare"] / (frame["distance"] + 1.0)
    frame["log_distance"] = np.log1p(frame["distance"].clip(lower=0))
    for column in ["pickup_hour", "pickup_day", "passengers"]:
        frame[column + "_squared"] = frame[column] ** 2
    return frame


def cross_validate(features, target, folds=5, seed=42):
    scores = []
    splitter = KFold(n_splits=folds, shuffle=True, random_state=seed)
    for train_idx, valid_idx in splitter.split(features):
        model = GradientBoostingRegressor(n_estimators=300, learning_rate=0.05, max_depth=4)
        model.fit(features.iloc[train_idx], target.iloc[train_idx])
        pred = model.predict(features.iloc[valid_idx])
        scores.append(np.sqrt(np.mean((pred - target.iloc[valid_idx]) ** 2)))
    return float(np.mean(scores)), float(np.std(scores))


def main():
    train = load("train.csv")
    test = load("test.csv")
    columns = [c for c in train.columns if c not in ("id", "target")]
    mean, std = cross_validate(train[columns], train["target"])
    print(f"rmse {mean:.4f} +- {std:.4f}")
    final = GradientBoostingRegressor(n_estimators=300, learning_rate=0.05, max_depth=4)
    final.fit(train[columns], train["target"])
    out = pd.DataFrame({"id": test["id"], "target": final.predict(test[columns])})
    out.to_csv("submission.csv", index=False)


if __name__ == "__main__":
    main()
"""

RENAMED = """import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.model_selection import KFold


def read_table(csv_file):
    df = pd.read_csv(csv_file)
    df["fare_per_km"] = df["fare"] / (df["distance"] + 2.0)
    df["dist_log"] = np.log1p(df["distance"].clip(lower=0))
    for name in ["hour", "weekday", "n_pass"]:
        df[name + "_sq"] = df[name] ** 2
    return df


def kfold_rmse(X, y, k=10, random_seed=0):
    errors = []
    kf = KFold(n_splits=k, shuffle=True, random_state=random_seed)
    for tr, va in kf.split(X):
        gbr = GradientBoostingRegressor(n_estimators=500, learning_rate=0.1, max_depth=3)
        gbr.fit(X.iloc[tr], y.iloc[tr])
        p = gbr.predict(X.iloc[va])
        errors.append(np.sqrt(np.mean((p - y.iloc[va]) ** 2)))
    return float(np.mean(errors)), float(np.std(errors))


def run():
    tr_df = read_table("data/train.csv")
    te_df = read_table("data/test.csv")
    feats = [f for f in tr_df.columns if f not in ("key", "label")]
    m, s = kfold_rmse(tr_df[feats], tr_df["label"])
    print(f"cv {m:.3f} / {s:.3f}")
    reg = GradientBoostingRegressor(n_estimators=500, learning_rate=0.1, max_depth=3)
    reg.fit(tr_df[feats], tr_df["label"])
    sub = pd.DataFrame({"key": te_df["key"], "label": reg.predict(te_df[feats])})
    sub.to_csv("submission/submission.csv", index=False)


if __name__ == "__main__":
    run()
"""

REORDERED = "\n\n".join(
    [RENAMED.split("\n\n\n")[0]] + [RENAMED.split("\n\n\n")[i] for i in (3, 2, 4, 1)]
)
"""The renamed copy with its functions in another order (and main first)."""

INDEPENDENT = """import pandas as pd
from sklearn.linear_model import RidgeCV
from sklearn.metrics import mean_squared_error
from sklearn.model_selection import train_test_split

train = pd.read_csv("data/train.csv")
test = pd.read_csv("data/test.csv")
train = train[(train.fare > 0) & (train.fare < 200)]
train["hour"] = pd.to_datetime(train.pickup).dt.hour
test["hour"] = pd.to_datetime(test.pickup).dt.hour
features = ["distance", "passengers", "hour"]
x_tr, x_va, y_tr, y_va = train_test_split(train[features], train.fare, test_size=0.2)
ridge = RidgeCV(alphas=[0.1, 1.0, 10.0]).fit(x_tr, y_tr)
print("valid rmse", mean_squared_error(y_va, ridge.predict(x_va)) ** 0.5)
ridge.fit(train[features], train.fare)
test["fare"] = ridge.predict(test[features])
test[["key", "fare"]].to_csv("submission/submission.csv", index=False)
"""
"""Another solution to the same task, written without looking at ORIGINAL."""

UNRELATED = """import torch
from torch import nn


class Net(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(width, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 1))

    def forward(self, x):
        return self.body(x).squeeze(-1)


def train_epochs(net, loader, epochs=10):
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3, weight_decay=1e-2)
    loss_fn = nn.BCEWithLogitsLoss()
    for epoch in range(epochs):
        total = 0.0
        for xb, yb in loader:
            opt.zero_grad()
            loss = loss_fn(net(xb), yb)
            loss.backward()
            opt.step()
            total += loss.item() * len(xb)
        print(epoch, total / len(loader.dataset))
    return net
"""


def notebook(source: str) -> str:
    """The source as a notebook: a markdown cell, a magic, then one code cell per function."""
    cells = [{"cell_type": "markdown", "source": ["# Taxi fares\n", "A strong baseline."]},
             {"cell_type": "code", "source": ["%matplotlib inline\n", "!pip install lightgbm"]}]  # fmt: skip
    for part in source.split("\n\n\n"):
        lines = part.splitlines(keepends=True)
        cells.append({"cell_type": "code", "source": lines, "outputs": [], "metadata": {}})
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


@pytest.fixture
def references(tmp_path: Path) -> Path:
    folder = tmp_path / "notebooks"
    (folder / "top").mkdir(parents=True)
    (folder / "top" / "gbm-baseline.ipynb").write_text(notebook(ORIGINAL))
    (folder / "torch-net.py").write_text(UNRELATED)
    (folder / "ridge.py").write_text(INDEPENDENT)
    return folder


def score(a: str, b: str) -> float:
    return similarity(fingerprints(a), fingerprints(b))


def test_names_strings_and_numbers_do_not_matter() -> None:
    assert tokens("total = price * 2  # comment\n") == tokens("s = rate * 3.5\n")
    assert tokens("f('a', b'x')\n") == tokens('g("""long""", f"{y}")\n')
    assert tokens("for x in y:\n    pass\n")[:4] == ["for", "N", "in", "N"]
    assert score(ORIGINAL, RENAMED) == 1.0


def test_a_reordered_copy_still_scores_high_and_is_flagged(references: Path, tmp_path) -> None:
    assert 0.7 < score(ORIGINAL, REORDERED) < 1.0
    code = tmp_path / "solution.py"
    code.write_text(REORDERED)
    report = compare(code, references)
    assert report["flagged"] and report["max_similarity"] == report["matches"][0]["similarity"]
    assert report["matches"][0]["file"] == "top/gbm-baseline.ipynb"  # the notebook, found deep
    assert [m["similarity"] for m in report["matches"]] == sorted(
        (m["similarity"] for m in report["matches"]), reverse=True
    )


def test_independent_and_unrelated_code_score_low() -> None:
    assert score(ORIGINAL, INDEPENDENT) < 0.2
    assert score(ORIGINAL, UNRELATED) < 0.05
    assert score(INDEPENDENT, UNRELATED) < 0.05


def test_a_notebook_scores_like_its_script(tmp_path: Path) -> None:
    path = tmp_path / "copy.ipynb"
    path.write_text(notebook(RENAMED))
    from scaffolds.monitor.fingerprint import read_source

    assert score(read_source(path), ORIGINAL) > 0.9


def test_winnowing_guarantee_a_shared_run_of_window_plus_k_minus_1_tokens() -> None:
    rng = random.Random(7)
    vocabulary = [f"t{i}" for i in range(40)]
    for _ in range(20):
        shared = [rng.choice(vocabulary) for _ in range(WINDOW + K - 1)]
        left = [rng.choice(vocabulary) for _ in range(rng.randrange(200))] + shared
        right = shared + [rng.choice(vocabulary) for _ in range(rng.randrange(200))]
        a, b = winnow(kgram_hashes(left)), winnow(kgram_hashes(right))
        assert np.isin(a, b).any()
    assert len(winnow(kgram_hashes(["x"] * (K - 1)))) == 0  # shorter than one k-gram


def plagiarism_cli(*args: str, cache: Path | None = None) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "scaffolds.monitor", "plagiarism", *args]
    env = {**os.environ, **({"XDG_CACHE_HOME": str(cache)} if cache else {})}
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env)


def test_command_prints_json_exits_1_when_flagged_and_caches_fingerprints(
    references: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    cache_file = default_cache(references)
    assert tmp_path / "cache" in cache_file.parents
    copied, own = tmp_path / "copied.py", tmp_path / "own.py"
    copied.write_text(RENAMED)
    own.write_text("\n".join(INDEPENDENT.splitlines()[:9]) + "\n")  # a third of ridge.py
    flagged = plagiarism_cli(
        "--code", str(copied), "--against", str(references), cache=tmp_path / "cache"
    )
    assert flagged.returncode == 1, flagged.stderr
    report = json.loads(flagged.stdout)
    assert report["flagged"] and report["max_similarity"] == 1.0 and report["k"] == 23
    cache = json.loads(cache_file.read_text())
    assert len(cache["entries"]) == 3 and cache["key"]["k"] == 23
    assert not any(p.name.endswith(".json") for p in references.iterdir())  # nothing written there

    (references / "torch-net.py").write_text(UNRELATED + "\nprint('changed')\n")
    clean = plagiarism_cli(
        "--code", str(own), "--against", str(references), cache=tmp_path / "cache"
    )
    assert clean.returncode == 0, clean.stderr
    best = json.loads(clean.stdout)["matches"][0]
    assert best["file"] == "ridge.py" and 0.2 < best["similarity"] < 0.6
    after = json.loads(cache_file.read_text())["entries"]
    assert len(after) == 3 and set(after) != set(cache["entries"])  # the changed file's entry


def test_links_are_never_followed_and_nothing_is_written_into_against(
    references: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent's folder of references may hold links to files it could not read and a link
    planted where an older version kept its cache: none is followed, nothing is written there."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    private = tmp_path / "private"
    private.mkdir()
    (private / "answer.py").write_text(RENAMED)
    (references / "leak.py").symlink_to(private / "answer.py")
    (references / "linked").symlink_to(private, target_is_directory=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("untouched")
    (references / ".fingerprints.json").symlink_to(victim)
    code = tmp_path / "solution.py"
    code.write_text(ORIGINAL)
    report = compare(code, references)
    files = {m["file"] for m in report["matches"]}
    assert files == {"top/gbm-baseline.ipynb", "torch-net.py", "ridge.py"}
    assert victim.read_text() == "untouched" and report["cached"]
    (tmp_path / "code-link.py").symlink_to(private / "answer.py")
    with pytest.raises(ValueError, match="link"):
        compare(tmp_path / "code-link.py", references)


def test_bad_input_is_one_line_and_exit_2(references: Path, tmp_path: Path) -> None:
    missing = plagiarism_cli("--code", str(tmp_path / "nope.py"), "--against", str(references))
    assert (
        missing.returncode == 2 and missing.stderr.count("\n") == 1 and "--code" in missing.stderr
    )
    broken = tmp_path / "broken.ipynb"
    broken.write_text("{not json")
    bad = plagiarism_cli("--code", str(broken), "--against", str(references))
    assert bad.returncode == 2 and "not a Jupyter notebook" in bad.stderr
    threshold = plagiarism_cli(
        "--code", str(broken), "--against", str(references), "--threshold", "2"
    )
    assert threshold.returncode == 2 and "--threshold" in threshold.stderr
