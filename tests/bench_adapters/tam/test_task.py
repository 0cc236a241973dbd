"""TAM tasks through the common contract: resolving, instructions, validation, the report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench_adapters import TaskNotPrepared, UnknownTask, resolve_task
from bench_adapters.tam import CODE_FILE, TASK_IDS, TamTask, constraints_of, load_spec
from bench_adapters.tam.synthetic import write_gold

REPORT = {"task", "score", "made_submission", "valid_submission", "rank", "participants",
          "rank_pct", "normalized_reward", "message", "code_path", "constraint_pass"}  # fmt: skip


def test_unknown_and_unprepared_tasks_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(UnknownTask, match="tam/<modality>/<difficulty>"):
        resolve_task("tam/tabular/impossible")
    with pytest.raises(TaskNotPrepared) as e:
        resolve_task("tam/audio/hard", data_dir=tmp_path)
    message = str(e.value)
    assert "\n" not in message and str(tmp_path / "audio" / "hard") in message
    assert "python -m bench_adapters.tam synthetic" in message


def test_the_data_dir_comes_from_tam_data_dir(
    tam_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAM_DATA_DIR", str(tam_data))
    task = resolve_task("tam/graph/easy")
    assert (
        isinstance(task, TamTask) and task.prepared_dir == tam_data / "graph" / "easy" / "prepared"
    )
    assert task.submission_relpath == "submission/submission.json" and task.extra_outputs == (
        CODE_FILE,
    )


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_instructions_carry_the_spec_the_graded_format_and_the_limits(
    tam_data: Path, task_id: str
) -> None:
    task = resolve_task(f"tam/{task_id}", data_dir=tam_data)
    text = task.instructions(hardware="1 NVIDIA A10", time_limit_s=8 * 3600, max_steps=10)
    spec = load_spec(task_id)
    assert spec["goal_description"] in text and spec["metric"]["metric_name"] in text
    assert "1 NVIDIA A10" in text and "8 hours" in text and "at most 10 steps" in text
    assert f"`{task.submission_relpath}`" in text and "best_solution.py" in text
    assert all(f"{i}. {c}" in text for i, c in enumerate(constraints_of(task_id), start=1))
    assert "## Submission format (as graded)" in text and "$" not in text.split("## Files")[1]
    listed = sorted(p.name for p in task.public_dir.iterdir())
    assert all(f"data/{name}" in text for name in listed[:10])


def test_validation_never_raises_and_grading_reports_every_field(
    tam_data: Path, tmp_path: Path
) -> None:
    for task_id in TASK_IDS:
        task = resolve_task(f"tam/{task_id}", data_dir=tam_data)
        junk = tmp_path / Path(task.info.submission).name
        junk.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00" * 50)
        ok, message = task.validate(junk)
        assert not ok and message.startswith("Submission invalid!"), (task_id, message)
        report = task.grade(junk)
        assert (
            set(report) >= REPORT and report["made_submission"] and not report["valid_submission"]
        )
        assert report["constraint_pass"] is None and report["constraints"] is None


def test_the_final_code_is_found_beside_the_submission_folder(
    tam_data: Path, tmp_path: Path
) -> None:
    task = resolve_task("tam/tabular/easy", data_dir=tam_data)
    run = tmp_path / "run"
    submission = write_gold(
        "tabular/easy", task.prepared_dir, run / "submission" / "submission.csv"
    )
    assert task.grade(submission)["code_path"] is None
    (run / "submission" / CODE_FILE).write_text("print(1)\n")
    assert task.grade(submission)["code_path"] == str(run / "submission" / CODE_FILE)
    (run / CODE_FILE).write_text("print(2)\n")  # the run folder's copy wins (AIDE's, the hook's)
    assert task.grade(submission)["code_path"] == str(run / CODE_FILE)
    assert task.grade(submission, code=tmp_path / "x.py")["code_path"] is None


def test_grade_and_validate_commands(run_cli, tam_data: Path, tmp_path: Path) -> None:
    task = resolve_task("tam/multimodal/medium", data_dir=tam_data)
    gold = write_gold("multimodal/medium", task.prepared_dir, tmp_path / "submission.parquet")
    env = {"TAM_DATA_DIR": str(tam_data)}
    graded = run_cli(
        "grade",
        "--task",
        "tam/multimodal/medium",
        "--submission",
        str(gold),
        env=env,
        module="bench_adapters",
    )
    assert graded.returncode == 0, graded.stderr
    report = json.loads(graded.stdout)
    assert report["score"] == 1.0 and report["rank"] == 1 and report["participants"] == 174
    checked = run_cli(
        "validate",
        "--task",
        "tam/multimodal/medium",
        "--submission",
        str(tmp_path / "no.parquet"),
        env=env,
        module="bench_adapters",
    )
    assert checked.returncode == 1 and json.loads(checked.stdout)["valid"] is False
    listed = run_cli("list", "--benchmark", "tam", "--split", "lite", module="bench_adapters")
    assert listed.stdout.split() == [f"tam/{t}" for t in TASK_IDS]
