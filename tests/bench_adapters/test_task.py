"""The Task contract: protocol, instructions, obfuscation, data and leaderboard sources."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench_adapters import (
    REPORT_KEYS,
    TaskNotPrepared,
    UnknownTask,
    list_tasks,
    resolve_task,
)
from bench_adapters.mlebench import graded_ids, split_ids
from scaffolds.protocols import Task


def test_tasks_satisfy_the_protocol(demo_dir: Path, mlebench_data: Path) -> None:
    for ref in ("demo/tabular-binary", "mlebench/spaceship-titanic"):
        task = resolve_task(ref, demo_dir=demo_dir, data_dir=mlebench_data)
        assert isinstance(task, Task)
        assert task.id == ref and task.benchmark == ref.split("/")[0]
        assert task.submission_relpath == "submission/submission.csv"
        assert task.public_dir == task.prepared_dir / "public"
        assert task.sample_submission_path.is_file()
        assert task.grader_spec.answers == task.answers_path.name


def test_instructions_fill_limits_paths_and_description(demo_dir: Path) -> None:
    task = resolve_task("demo/digits-image", demo_dir=demo_dir)
    text = task.instructions(hardware="1 NVIDIA H100", time_limit_s=7200, max_steps=None)
    for expected in (
        "1 NVIDIA H100",
        "2 hours",
        "no limit on the number of steps",
        "submission/submission.csv",
        "data/",
        "code/",
        "working/",
        "Handwritten digits",
    ):
        assert expected in text, expected
    assert text.index("2 hours") < text.index("Handwritten digits")  # description comes last
    assert "$" not in text.replace("${", "")  # every placeholder was filled


def test_mlebench_instructions_and_obfuscation(
    mlebench_data: Path, mlebench_checkout: Path
) -> None:
    options = {"data_dir": mlebench_data, "mlebench_dir": mlebench_checkout}
    plain = resolve_task("mlebench/spaceship-titanic", **options)
    text = plain.instructions(hardware="a CPU", time_limit_s=86400, max_steps=500)
    assert "Kaggle" in text and "Spaceship Titanic" in text and "500 steps" in text
    assert "24 hours" in text and "COMPETITION INSTRUCTIONS" in text
    hidden = resolve_task("mlebench/spaceship-titanic", obfuscate=True, **options)
    text = hidden.instructions(hardware="a CPU", time_limit_s=86400, max_steps=500)
    assert "kaggle" not in text.lower()
    assert "spaceship titanic" not in text.lower() and "spaceship-titanic" not in text.lower()
    assert "Predict the target" in text


def test_checkout_description_obfuscated_is_preferred(mlebench_data: Path, tmp_path: Path) -> None:
    comp = tmp_path / "mlebench" / "competitions" / "spaceship-titanic"
    comp.mkdir(parents=True)
    (comp / "description.md").write_text("Kaggle's Spaceship Titanic\n")
    (comp / "description_obfuscated.md").write_text("An anonymous passenger task\n")
    task = resolve_task(
        "mlebench/spaceship-titanic", data_dir=mlebench_data, mlebench_dir=tmp_path, obfuscate=True
    )
    assert "An anonymous passenger task" in task.description


def test_data_dir_from_environment(mlebench_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MLEBENCH_DATA_DIR", str(mlebench_data))
    monkeypatch.delenv("MLEBENCH_DIR", raising=False)
    task = resolve_task("mlebench/nomad2018-predict-transparent-conductors")
    assert (
        task.prepared_dir == mlebench_data / "nomad2018-predict-transparent-conductors" / "prepared"
    )
    assert task.leaderboard is None and task.is_lower_better is True  # RMSLE, from the fallback


def test_unknown_and_unprepared(tmp_path: Path) -> None:
    for ref in (
        "mlebench/not-a-competition",
        "nobench/x",
        "demo/nope",
        "mlebench/",
        str(tmp_path / "no-such-folder"),
    ):
        with pytest.raises(UnknownTask):
            resolve_task(ref, data_dir=tmp_path)
    with pytest.raises(UnknownTask, match="is not an MLE-bench competition"):
        resolve_task("mlebench/3d-object-detection", data_dir=tmp_path)
    with pytest.raises(TaskNotPrepared):  # every MLE-bench competition has a grader now
        resolve_task("mlebench/3d-object-detection-for-autonomous-vehicles", data_dir=tmp_path)
    with pytest.raises(TaskNotPrepared, match="mlebench prepare"):
        resolve_task("mlebench/spaceship-titanic", data_dir=tmp_path)
    with pytest.raises(TypeError, match="datadir"):
        resolve_task("demo/tabular-binary", datadir=tmp_path)  # a typo is not silently ignored


def test_a_task_folder_is_a_reference(mlebench_data: Path, mlebench_checkout: Path) -> None:
    folder = mlebench_data / "spaceship-titanic"
    for ref in (folder, folder / "prepared"):
        task = resolve_task(str(ref), mlebench_dir=mlebench_checkout)
        assert task.id == "mlebench/spaceship-titanic" and task.leaderboard is not None


def test_lfs_pointer_leaderboard_grades_without_medals(
    mlebench_data: Path, tmp_path: Path, gold_paths: dict[str, Path]
) -> None:
    comp = tmp_path / "mlebench" / "competitions" / "spaceship-titanic"
    comp.mkdir(parents=True)
    (comp / "leaderboard.csv").write_text("version https://git-lfs.github.com/spec/v1\n")
    task = resolve_task("mlebench/spaceship-titanic", data_dir=mlebench_data, mlebench_dir=tmp_path)
    assert task.leaderboard is None and "LFS" in task.no_leaderboard_reason
    report = task.grade(gold_paths["spaceship-titanic"])
    assert tuple(report) == REPORT_KEYS
    assert report["score"] == 1.0 and report["gold_medal"] is None
    json.dumps(report)


def test_gold_wins_gold_and_sample_wins_nothing_on_every_cpu_only_task(
    mlebench_data: Path, mlebench_checkout: Path, gold_paths: dict[str, Path]
) -> None:
    for cid in split_ids("cpu_only"):
        task = resolve_task(
            f"mlebench/{cid}", data_dir=mlebench_data, mlebench_dir=mlebench_checkout
        )
        gold = task.grade(gold_paths[cid])
        assert gold["gold_medal"] and gold["normalized_reward"] == 1.0, cid
        assert gold["leaderboard_rank_pct"] >= 99.0
        sample = task.grade(task.sample_submission_path)
        assert sample["valid_submission"] and not sample["any_medal"] and not sample["above_median"]


def test_splits_match_the_reference_lists(reference: Path) -> None:
    sizes = {"all": 75, "lite": 22, "medium": 38, "high": 15, "dev": 7, "cpu_only": 7}
    for split, size in sizes.items():
        shipped = split_ids(split)
        ref = (reference / "mlebench" / "splits" / f"{split}.txt").read_text().split()
        assert shipped == ref and len(shipped) == size
    assert split_ids("low") == split_ids("lite")
    graded = set(graded_ids())
    assert set(split_ids("lite")) <= graded and set(split_ids("cpu_only")) <= graded
    assert len(list_tasks("mlebench", "lite", graded_only=True)) == 22
