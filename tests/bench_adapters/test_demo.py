"""Demo tasks: reproducible, race-safe and graded on a fair leaderboard (their build time is
bench/demo_tasks.py's)."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PIL import Image
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from bench_adapters import resolve_task
from bench_adapters.demo import DEMO_IDS, ensure_generated


def _digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_generation_is_reproducible(tmp_path: Path, demo_dir: Path) -> None:
    """Two builds give the same bytes. How fast a build is (goal: all demo tasks in 5 s) is
    measured by bench/demo_tasks.py."""
    for task_id in DEMO_IDS:
        ensure_generated(task_id, tmp_path / "again")
    for task_id in DEMO_IDS:
        first, second = demo_dir / "v1" / task_id, tmp_path / "again" / task_id
        assert _digest(first) == _digest(second)


def test_layout_sizes_and_synthetic_label(demo_dir: Path) -> None:
    for task_id in DEMO_IDS:
        task = resolve_task(f"demo/{task_id}", demo_dir=demo_dir)
        public = task.public_dir
        assert {"train.csv", "test.csv", "sample_submission.csv", "description.md"} <= {
            p.name for p in public.iterdir()
        }
        assert not any("private" in str(p) for p in public.rglob("*"))
        test = pd.read_csv(public / "test.csv")
        answers = pd.read_csv(task.answers_path)
        assert 100 <= len(test) == len(answers) <= 500
        assert task.leaderboard is not None and task.leaderboard.n_teams >= 100
        assert "synthetic" in task.description.lower()
        assert task.validate(task.sample_submission_path) == (True, "Submission is valid.")
    images = sorted(
        (demo_dir / "v1" / "digits-image" / "prepared" / "public" / "test").glob("*.png")
    )
    assert len(images) == 200
    assert np.asarray(Image.open(images[0])).shape == (8, 8)


def test_concurrent_first_use_is_safe(tmp_path: Path) -> None:
    """Two processes building the same tasks at once both succeed and agree."""
    code = (
        "import sys; from pathlib import Path; from bench_adapters.demo import ensure_generated;"
        "[ensure_generated(t, Path(sys.argv[1])) for t in ('tabular-regression', 'tabular-binary')]"
    )
    procs = [subprocess.Popen([sys.executable, "-c", code, str(tmp_path)]) for _ in range(2)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tabular-binary", "tabular-regression"]
    task = resolve_task(str(tmp_path / "tabular-regression"))  # a task folder works as a ref
    assert task.id == "demo/tabular-regression"
    assert task.validate(task.sample_submission_path)[0]


def _fit_predict(task_id: str, public: Path) -> pd.DataFrame:
    """A plain model per task, the kind a first baseline uses."""
    train, test = pd.read_csv(public / "train.csv"), pd.read_csv(public / "test.csv")
    if task_id == "digits-image":

        def pixels(split: str, ids: pd.Series) -> np.ndarray:
            return (
                np.stack([np.asarray(Image.open(public / split / f"{i}.png")).ravel() for i in ids])
                / 255
            )

        model = LogisticRegression(max_iter=2000).fit(pixels("train", train["id"]), train["label"])
        return pd.DataFrame({"id": test["id"], "label": model.predict(pixels("test", test["id"]))})
    features = [c for c in test.columns if c != "id"]
    if task_id == "tabular-binary":
        clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
        clf.fit(train[features], train["target"])
        return pd.DataFrame({"id": test["id"], "target": clf.predict_proba(test[features])[:, 1]})
    reg = make_pipeline(StandardScaler(), Ridge()).fit(train[features], train["target"])
    return pd.DataFrame({"id": test["id"], "target": reg.predict(test[features])})


@pytest.mark.parametrize("task_id", DEMO_IDS)
def test_a_reasonable_model_medals_and_the_sample_does_not(
    task_id: str, demo_dir: Path, tmp_path: Path
) -> None:
    task = resolve_task(f"demo/{task_id}", demo_dir=demo_dir)
    path = tmp_path / "submission.csv"
    _fit_predict(task_id, task.public_dir).to_csv(path, index=False)
    model = task.grade(path)
    assert model["valid_submission"] and model["above_median"] and model["any_medal"], model
    assert model["normalized_reward"] > 0.5
    sample = task.grade(task.sample_submission_path)
    assert sample["valid_submission"] and not sample["above_median"] and not sample["any_medal"]
    assert sample["normalized_reward"] == 0.0
