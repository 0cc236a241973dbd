"""``--grade-later``: a run ends without grading, says how to grade it, and that command works."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys

from scaffolds.basic import main
from scaffolds.integrity import verify

COPY_SAMPLE = (
    "import shutil; shutil.copy('data/sample_submission.csv', 'submission/submission.csv')"
)


def test_a_run_ended_with_grade_later_is_graded_by_its_own_command(
    runs_root, write_cassette, call
) -> None:
    cassette = write_cassette(
        "grade-later",
        [{"tool_calls": [call("python", code=COPY_SAMPLE)]}, {"tool_calls": [call("answer")]}],
    )
    out = runs_root / "grade-later"
    argv = ["--model", f"replay:{cassette}", "--task", "demo/tabular-binary", "--out", str(out)]
    assert main([*argv, "--grade-later"]) == 0

    summary = json.loads((out / "run.json").read_text())
    assert summary["status"] == "submitted" and summary["config"]["grade_later"] is True
    grade = json.loads((out / "grade.json").read_text())
    assert grade["graded"] is False and "score" not in grade
    command = shlex.split(grade["grade_command"])
    assert command[:4] == ["python", "-m", "bench_adapters", "grade"]
    later = subprocess.run(
        [sys.executable, *command[1:]], capture_output=True, text=True, timeout=120
    )
    assert later.returncode == 0, later.stderr
    report = json.loads(later.stdout)
    assert report["valid_submission"] is True and report["score"] is not None
    record = json.loads((out / "run.json").read_text())  # the run's record has it too
    assert record["grade"] == report == json.loads((out / "grade.json").read_text())
    integrity = record["integrity"]
    assert integrity["grading_started_at"] > integrity["sandbox_closed_at"]
    assert verify(record) is None


def test_the_grade_command_carries_the_runs_task_options(tmp_path) -> None:
    from basic_agent import BasicConfig
    from scaffolds.runtime import ungraded

    config = BasicConfig(model="m", task="tam/tabular/easy", data_dir=tmp_path / "my data",
                         judge_model="gpt-4o", time_limit=600, obfuscate=True)  # fmt: skip
    command = shlex.split(ungraded(config, tmp_path / "sub.csv")["grade_command"])
    assert command[command.index("--data-dir") + 1] == str(tmp_path / "my data")
    assert command[command.index("--judge-model") + 1] == "gpt-4o"
    assert command[command.index("--submission") + 1] == str(tmp_path / "sub.csv")
    assert "--obfuscate" not in command  # it changes what the agent reads, not the grade
    assert "--reproduce-timeout" not in command  # PaperBench's alone
