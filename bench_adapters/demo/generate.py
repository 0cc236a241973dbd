"""Build the demo tasks from datasets scikit-learn bundles (no download), reproducibly.

Each task folder gets the upstream prepared layout plus its description and a synthetic
leaderboard::

    <folder>/description.md
    <folder>/leaderboard.csv
    <folder>/prepared/public/{train.csv,test.csv,sample_submission.csv,description.md,...}
    <folder>/prepared/private/test.csv

The leaderboard's 120 teams are the task's reference model (fit on the public training data)
degraded by seeded noise of varying strength, each scored with the task's own metric, so a
reasonable model reaches a medal and a constant sample submission sits below the median.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image
from sklearn import datasets
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import prompts
from bench_adapters.demo.specs import INFO, grade_fn

N_TEAMS = 120
SEED = 20240601
BINARY_NOISE = 2.0
"""Logit noise of the weakest team, in standard deviations of the reference model's logits."""
REGRESSION_NOISE = 1.5
"""Prediction noise of the weakest team, in standard deviations of the training target."""
DIGITS_NOISE = 0.6
"""Share of labels the weakest team guesses at random."""


@dataclass
class Built:
    """One generated task before it is written."""

    train: pd.DataFrame
    test: pd.DataFrame
    answers: pd.DataFrame
    sample: pd.DataFrame
    teams: list[pd.DataFrame]
    """One submission per synthetic team (id + target columns)."""
    images: dict[str, np.ndarray] = field(default_factory=dict)
    """``<split>/<id>.png`` -> 8-bit grayscale pixels."""


def _split(n: int, n_test: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    order = rng.permutation(n)
    return order[n_test:], order[:n_test]


def _weakness(rng: np.random.Generator) -> np.ndarray:
    """How far each team is from the reference model: 0 = as good, 1 = no signal."""
    return np.sort(rng.beta(1.1, 1.6, size=N_TEAMS))


def _tabular_binary(rng: np.random.Generator) -> Built:
    data = datasets.load_breast_cancer(as_frame=True)
    x = data.data.rename(columns=lambda c: c.replace(" ", "_"))
    y = 1 - data.target  # 1 = malignant
    tr, te = _split(len(x), 170, rng)
    frame = x.assign(target=y)
    frame.insert(0, "id", np.arange(len(x)))
    train, test = frame.iloc[tr].reset_index(drop=True), frame.iloc[te].reset_index(drop=True)
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.3, max_iter=2000))
    model.fit(train[x.columns], train["target"])
    ref = model.predict_proba(test[x.columns])[:, 1]
    logit = np.log(np.clip(ref, 1e-6, 1 - 1e-6) / np.clip(1 - ref, 1e-6, 1))
    teams = []
    for w in _weakness(rng):
        z = logit + BINARY_NOISE * w * logit.std() * rng.standard_normal(len(ref))
        teams.append(pd.DataFrame({"id": test["id"], "target": 1 / (1 + np.exp(-z))}))
    return Built(
        train=train,
        test=test.drop(columns="target"),
        answers=test[["id", "target"]],
        sample=pd.DataFrame({"id": test["id"], "target": 0.5}),
        teams=teams,
    )


def _tabular_regression(rng: np.random.Generator) -> Built:
    data = datasets.load_diabetes(as_frame=True, scaled=False)
    x = data.data
    tr, te = _split(len(x), 133, rng)
    frame = x.assign(target=data.target)
    frame.insert(0, "id", np.arange(len(x)))
    train, test = frame.iloc[tr].reset_index(drop=True), frame.iloc[te].reset_index(drop=True)
    model = make_pipeline(StandardScaler(), Ridge(alpha=1.0))
    model.fit(train[x.columns], train["target"])
    ref = model.predict(test[x.columns])
    spread = float(train["target"].std())
    teams = []
    for w in _weakness(rng):
        pred = ref + REGRESSION_NOISE * w * spread * rng.standard_normal(len(ref))
        teams.append(pd.DataFrame({"id": test["id"], "target": pred}))
    mean = round(float(train["target"].mean()), 1)
    return Built(
        train=train,
        test=test.drop(columns="target"),
        answers=test[["id", "target"]],
        sample=pd.DataFrame({"id": test["id"], "target": mean}),
        teams=teams,
    )


def _digits_image(rng: np.random.Generator) -> Built:
    data = datasets.load_digits()
    keep = rng.choice(len(data.target), size=700, replace=False)
    tr, te = keep[200:], keep[:200]
    ids = np.array([f"img_{i:04d}" for i in range(len(data.target))])
    pixels = np.clip(data.images * 16, 0, 255).astype(np.uint8)
    model = LogisticRegression(max_iter=3000, C=0.05)
    model.fit(data.data[tr] / 16.0, data.target[tr])
    ref = model.predict(data.data[te] / 16.0)
    teams = []
    for w in _weakness(rng):
        labels = np.where(
            rng.random(len(ref)) < DIGITS_NOISE * w, rng.integers(0, 10, len(ref)), ref
        )
        teams.append(pd.DataFrame({"id": ids[te], "label": labels}))
    images = {f"train/{ids[i]}.png": pixels[i] for i in tr}
    images.update({f"test/{ids[i]}.png": pixels[i] for i in te})
    return Built(
        train=pd.DataFrame({"id": ids[tr], "label": data.target[tr]}),
        test=pd.DataFrame({"id": ids[te]}),
        answers=pd.DataFrame({"id": ids[te], "label": data.target[te]}),
        sample=pd.DataFrame({"id": ids[te], "label": 0}),
        teams=teams,
        images=images,
    )


BUILDERS: dict[str, Callable[[np.random.Generator], Built]] = {
    "tabular-binary": _tabular_binary,
    "tabular-regression": _tabular_regression,
    "digits-image": _digits_image,
}


def leaderboard_frame(task_id: str, built: Built) -> pd.DataFrame:
    """The teams' scores, best first, in MLE-bench's leaderboard export format."""
    grade = grade_fn(task_id)
    scores = np.array([round(grade(team, built.answers), 5) for team in built.teams])
    order = np.argsort(scores if INFO[task_id].is_lower_better else -scores, kind="stable")
    dates = pd.Timestamp("2024-06-01") + pd.to_timedelta(np.arange(N_TEAMS) * 3607, unit="s")
    return pd.DataFrame(
        {
            "scoreNullable": scores[order],
            "teamId": 1000 + np.arange(N_TEAMS),
            "hasTeamName": True,
            "submissionDate": dates.strftime("%Y-%m-%d %H:%M:%S"),
            "score": scores[order],
            "hasScore": True,
        }
    )


def description(task_id: str, built: Built, board: pd.DataFrame) -> str:
    return prompts.render(
        "demo",
        task_id,
        trim="none",
        n_train=len(built.train),
        n_test=len(built.test),
        n_teams=len(board),
    )


def generate(task_id: str, folder: Path, seed: int = SEED) -> Path:
    """Write demo task ``task_id`` into ``folder`` (created; should be new and empty)."""
    built = BUILDERS[task_id](np.random.default_rng([seed, list(BUILDERS).index(task_id)]))
    public, private = folder / "prepared" / "public", folder / "prepared" / "private"
    for d in (public, private):
        d.mkdir(parents=True, exist_ok=True)
    built.train.to_csv(public / "train.csv", index=False)
    built.test.to_csv(public / "test.csv", index=False)
    built.sample.to_csv(public / "sample_submission.csv", index=False)
    built.answers.to_csv(private / "test.csv", index=False)
    for relpath, pixels in built.images.items():
        (public / relpath).parent.mkdir(exist_ok=True)
        Image.fromarray(pixels).save(public / relpath)
    board = leaderboard_frame(task_id, built)
    board.to_csv(folder / "leaderboard.csv", index=False)
    text = description(task_id, built, board)
    (folder / "description.md").write_text(text, encoding="utf-8")
    (public / "description.md").write_text(text, encoding="utf-8")
    return folder
