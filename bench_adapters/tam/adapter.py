"""TAM-Bench Lite as Tasks: ``tam/<modality>/<difficulty>``, split ``lite``.

Prepared data (see ``bench_adapters/tam/README.md``) lives under ``--data-dir`` /
``$TAM_DATA_DIR`` / ``~/.cache/tam-bench/data``, one folder per task::

    <root>/<modality>/<difficulty>/prepared/public/    what the agent reads (data/)
    <root>/<modality>/<difficulty>/prepared/private/   the answers (test_labels.*), harness only

Specs and leaderboards ship inside the package. Options: ``data_dir``, ``judge_model``,
``judge_api_base``, ``max_judge_cost``; other benchmarks' options are ignored.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from bench_adapters.errors import TaskNotPrepared, UnknownTask
from bench_adapters.tam.specs import TASK_IDS, task_info
from bench_adapters.tam.task import JudgeOptions, TamTask
from scaffolds.protocols import PlannedRun, ReportSection

DEFAULT_DATA_DIR = "~/.cache/tam-bench/data"
SPLITS = ("lite",)


def data_root(option: str | Path | None = None) -> Path:
    return Path(option or os.environ.get("TAM_DATA_DIR") or DEFAULT_DATA_DIR).expanduser()


def prepare_hint(root: Path) -> str:
    return (
        f"prepare it under {root} as bench_adapters/tam/README.md describes, or generate "
        f"synthetic data with `python -m bench_adapters.tam synthetic --data-dir {root}`"
    )


class Tam:
    name = "tam"
    submits_folders = False

    def report_sections(
        self, rows: list[dict[str, Any]], plan: list[PlannedRun]
    ) -> list[ReportSection]:
        """The paper's Tables 2-4 and ``tam_summary.csv`` (``report.py``)."""
        from bench_adapters.tam.report import report_sections

        return report_sections(rows, plan)

    def needs_gpu(self, task_id: str) -> None:
        """TAM-Bench states no hardware per task: a run gets the machine's GPUs."""
        return None

    def splits(self) -> list[str]:
        return list(SPLITS)

    def list_ids(self, split: str | None = None, graded_only: bool = False) -> list[str]:
        return list(TASK_IDS)

    def resolve(
        self,
        task_id: str,
        *,
        data_dir: str | Path | None = None,
        judge_model: str | None = None,
        judge_api_base: str | None = None,
        max_judge_cost: float | None = None,
        **_other_benchmarks: Any,
    ) -> TamTask:
        if task_id not in TASK_IDS:
            raise UnknownTask(
                f"unknown task 'tam/{task_id}' (TAM tasks are tam/<modality>/<difficulty>; "
                "see `python -m bench_adapters list --benchmark tam`)"
            )
        root = data_root(data_dir)
        prepared = root / task_id / "prepared"
        judge = JudgeOptions(judge_model, judge_api_base, max_judge_cost)
        return self._build(task_id, prepared, judge, prepare_hint(root))

    def from_folder(
        self,
        folder: Path,
        *,
        judge_model: str | None = None,
        judge_api_base: str | None = None,
        max_judge_cost: float | None = None,
        **_other_options: Any,
    ) -> TamTask | None:
        task_id = f"{folder.parent.name}/{folder.name}"
        if task_id not in TASK_IDS:
            return None
        judge = JudgeOptions(judge_model, judge_api_base, max_judge_cost)
        return self._build(task_id, folder / "prepared", judge, prepare_hint(folder.parent.parent))

    def _build(self, task_id: str, prepared: Path, judge: JudgeOptions, hint: str) -> TamTask:
        task = TamTask(task_info(task_id), prepared, judge)
        if not task.answers_path.is_file() or not task.public_dir.is_dir():
            raise TaskNotPrepared(
                f"tam/{task_id}: data not prepared (no answers at {task.answers_path}); {hint}"
            )
        return task
