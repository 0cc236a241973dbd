"""Every generator against its competition's real grader and validator: the answers score
best, the sample scores what upstream's constant scores, corrupted copies are rejected."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from bench_adapters import resolve_task
from bench_adapters.mlebench import split_ids
from bench_adapters.mlebench.synthetic import synthetic_competitions

LITE = [c for c in split_ids("lite") if c in synthetic_competitions()]
POSITIONAL = {"new-york-city-taxi-fare-prediction", "nomad2018-predict-transparent-conductors"}
"""Upstream scores these two by position: foreign ids are not an error there."""
SAMPLE_SCORES = {  # upstream's sample-submission constants score exactly this on any data
    "aerial-cactus-identification": 0.5,
    "aptos2019-blindness-detection": 0.0,
    "dog-breed-identification": 4.78749,  # log(120)
    "dogs-vs-cats-redux-kernels-edition": 0.69315,  # log(2)
    "histopathologic-cancer-detection": 0.5,
    "leaf-classification": 4.59512,  # log(99)
    "plant-pathology-2020-fgvc7": 0.5,
    "ranzcr-clip-catheter-line-classification": 0.5,
    "siim-isic-melanoma-classification": 0.5,
    "detecting-insults-in-social-commentary": 0.5,
    "jigsaw-toxic-comment-classification-challenge": 0.5,
    "random-acts-of-pizza": 0.5,
    "mlsp-2013-birds": 0.5,
    "the-icml-2013-whale-challenge-right-whale-redux": 0.5,
}


@pytest.mark.parametrize("cid", LITE)
def test_answers_score_best_and_sample_scores_its_constant(
    cid: str, mlebench_data: Path, gold_paths: dict[str, Path]
) -> None:
    task = resolve_task(f"mlebench/{cid}", data_dir=mlebench_data)
    assert task.validate(gold_paths[cid]) == (True, "Submission is valid.")
    gold = task.grade(gold_paths[cid])["score"]
    assert gold == (0.0 if task.is_lower_better else 1.0), gold
    assert task.validate(task.sample_submission_path) == (True, "Submission is valid.")
    sample = task.grade(task.sample_submission_path)["score"]
    if cid in SAMPLE_SCORES:
        assert sample == pytest.approx(SAMPLE_SCORES[cid], abs=1e-5)
    assert sample != gold


@pytest.mark.parametrize("cid", LITE)
def test_corrupted_samples_are_rejected_with_a_message(
    cid: str, mlebench_data: Path, tmp_path: Path
) -> None:
    task = resolve_task(f"mlebench/{cid}", data_dir=mlebench_data)
    sample = pd.read_csv(task.sample_submission_path, dtype=str, keep_default_na=False)
    corrupted = {
        "missing-column": sample.drop(columns=sample.columns[-1]),
        "wrong-row-count": sample.iloc[:-1],
    }
    if cid not in POSITIONAL:
        corrupted["foreign-ids"] = sample.assign(**{sample.columns[0]: "no-such-id"})
    for name, frame in corrupted.items():
        path = tmp_path / f"{name}.csv"
        frame.to_csv(path, index=False)
        ok, message = task.validate(path)
        assert not ok and message.startswith("Submission invalid!"), (name, message)
        assert task.grade(path)["valid_submission"] is False, name
