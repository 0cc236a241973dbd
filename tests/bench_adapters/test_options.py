"""Task options are declared once (``bench_adapters/options.py``): adding one is adding a field.

The test adds a field to a copy of the product and checks that every place that takes task
options has it, with nothing else changed: each scaffold's flags and ``RunConfig``, the
registry's validation, the grading CLI's flags, and the command a ``--grade-later`` run
records. A second list of options anywhere would leave the new one out and fail here."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.layers import PACKAGES

REPO = Path(__file__).resolve().parents[2]

NEW_FIELD = """
    judge_temperature: float | None = Field(
        None,
        description="Sampling temperature of the judge model",
        json_schema_extra={"group": "judge", "grading": True, "benchmarks": ["tam"]},
    )
"""

PROBE = """
import json
from pathlib import Path
from basic_agent import BasicConfig
from bench_adapters.options import grade_command
from bench_adapters.registry import OPTIONS
from scaffolds.runtime import task_options, ungraded

config = BasicConfig(model="m", task="tam/tabular/easy", judge_temperature=0.5)
print(json.dumps({
    "registry": "judge_temperature" in OPTIONS,
    "run_options": task_options(config),
    "grade_later": ungraded(config, Path("sub.csv"))["grade_command"],
    "other_benchmark": grade_command("mlebench/x", Path("s.csv"), {"judge_temperature": 0.5}),
}))
"""


def test_an_option_added_as_one_field_reaches_every_place_that_takes_options(
    tmp_path: Path,
) -> None:
    for package in PACKAGES:
        shutil.copytree(REPO / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))  # fmt: skip
    options = tmp_path / "bench_adapters" / "options.py"
    text = options.read_text(encoding="utf-8")
    anchor = "\n    @field_validator"
    assert anchor in text
    options.write_text(text.replace(anchor, NEW_FIELD + anchor, 1), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}

    def run(*argv: str) -> str:
        done = subprocess.run([sys.executable, *argv], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=120, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr
        return done.stdout

    for scaffold in ("basic", "iterative", "aide"):
        assert "--judge-temperature" in run("-m", f"scaffolds.{scaffold}", "--help"), scaffold
    assert "--judge-temperature" in run("-m", "bench_adapters", "grade", "--help")
    assert "--judge-temperature" not in run("-m", "bench_adapters", "validate", "--help")

    found = json.loads(run("-c", PROBE))
    assert found["registry"] is True
    assert found["run_options"]["judge_temperature"] == 0.5
    assert "--judge-temperature 0.5" in found["grade_later"]
    assert "--judge-temperature" not in found["other_benchmark"]  # TAM's option only
