"""TAM-Bench's reference solvers (the tabular and text tasks) and the grader check over all of
TAM Lite, on synthetic data through the real graders."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from baselines import BASELINES, baseline_module
from baselines.kit import call_main
from bench_adapters import resolve_task
from bench_adapters.tam import TASK_IDS
from bench_adapters.tam.synthetic import make_prepared

TAM_BASELINES = [f"tam/{m}/{d}" for m in ("tabular", "text") for d in ("easy", "medium", "hard")]
METRIC_LINE = re.compile(r"^val (\w+) (-?\d+\.\d{5}) \(.+\)$", re.MULTILINE)


@pytest.fixture(scope="module")
def tam_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tam-baseline-data")
    for task_id in TASK_IDS:
        make_prepared(task_id, root, seed=11)
    return root


def test_the_tabular_and_text_tasks_have_baselines() -> None:
    assert [r for r in BASELINES if r.startswith("tam/")] == TAM_BASELINES
    for ref in TAM_BASELINES:
        module = baseline_module(ref)
        assert module.__name__ == "baselines.tam." + ref.removeprefix("tam/").replace("/", "_")
        assert "python -m baselines run --task " + ref in (module.__doc__ or "")
        assert isinstance(module.SEED, int) and module.TIME_BUDGET_S > 0 and module.METRIC


@pytest.mark.parametrize("ref", TAM_BASELINES)
def test_a_baseline_reads_only_public_data_and_beats_the_sample(
    ref: str, tam_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    task = resolve_task(ref, data_dir=tam_data)
    public = tmp_path / "alone" / "public"  # a copy with no private/ beside it
    shutil.copytree(task.public_dir, public)
    out = tmp_path / "submission.csv"
    score = call_main(baseline_module(ref), public, out, smoke=False, threads=1)
    assert METRIC_LINE.findall(capsys.readouterr().out) == [
        (baseline_module(ref).METRIC, f"{score:.5f}")
    ]
    report, sample = task.grade(out), task.grade(task.sample_submission_path)
    assert report["valid_submission"], report["message"]
    better = (
        report["score"] < sample["score"]
        if task.is_lower_better
        else report["score"] > sample["score"]
    )
    assert better, (report["score"], sample["score"])
    assert report["rank"] <= sample["rank"]


def test_check_passes_over_tam_lite(run_cli, tam_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "check"
    result = run_cli(
        "check", "--split", "tam_lite", "--data-dir", str(tam_data), "--out", str(out), "--smoke"
    )
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads((out / "check.json").read_text())
    assert report["summary"]["tasks_checked"] == 18 and report["summary"]["failed"] == 0
    by_task = {t["task"]: t["outcomes"] for t in report["tasks"]}
    gold = [o for o in by_task["tam/graph/hard"] if o["submission"] == "gold"]
    assert [(o["expectation"], o["status"]) for o in gold] == [
        ("valid", "pass"),
        ("rank 1", "pass"),
    ]
    broken = {o["submission"]: o["status"] for o in by_task["tam/multimodal/medium"]}
    assert broken["missing-row"] == broken["missing-column"] == broken["wrong-format"] == "pass"
    skipped = [o for o in by_task["tam/text/hard"] if o["status"] == "skip"]
    assert skipped and all(
        "synthetic" in o["evidence"] or "--smoke" in o["evidence"] for o in skipped
    )


def test_run_prints_the_rank(run_cli, tam_data: Path, tmp_path: Path) -> None:
    result = run_cli(
        "run",
        "--task",
        "tam/text/hard",
        "--data-dir",
        str(tam_data),
        "--out",
        str(tmp_path),
        "--smoke",
    )
    assert result.returncode == 0, result.stderr
    assert re.search(
        r"tam/text/hard: val map25 \S+ \| test score \S+ \(valid: True, rank \d+/1449\)",
        result.stdout,
    )
    assert json.loads((tmp_path / "grade.json").read_text())["participants"] == 1449
