"""The ``paperbench`` benchmark: papers to replicate, from upstream's data folder.

    python -m bench_adapters list --benchmark paperbench --split lite
    python -m scaffolds.iterative --model o1 --task paperbench/rice --data-dir ~/paperbench/data \\
        --time-limit 12h --judge-model o3-mini

Options: ``data_dir`` (else ``$PAPERBENCH_DATA_DIR``), and the grading options of
``task.PaperOptions``; the other benchmarks' options are ignored. ``paperbench/demo-james-stein``
needs no data folder: it is installed from the package (see ``demo``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench_adapters.errors import UnknownTask
from bench_adapters.paperbench.demo import DEMO_ID, demo_data_dir
from bench_adapters.paperbench.layout import find_paper, stage_public
from bench_adapters.paperbench.splits import SPLITS, known_ids, split_ids
from bench_adapters.paperbench.task import PaperOptions, PaperTask
from scaffolds.protocols import MonitorRule, PlannedRun, ReportSection


class PaperBench:
    name = "paperbench"
    submits_folders = True

    def report_sections(
        self, rows: list[dict[str, Any]], plan: list[PlannedRun]
    ) -> list[ReportSection]:
        """The replication score, per paper, and the judge's cost (``report.py``)."""
        from bench_adapters.paperbench.report import report_sections

        return report_sections(rows, plan)

    def monitor_rules(self) -> list[MonitorRule]:
        """The blacklist rule (``monitor.BlacklistRule``)."""
        from bench_adapters.paperbench.monitor import BlacklistRule

        return [BlacklistRule()]

    def needs_gpu(self, task_id: str) -> bool:
        """Upstream gives each paper an A10, except the bundled demo paper."""
        from bench_adapters.paperbench.splits import split_ids

        return task_id not in split_ids("demo")

    def splits(self) -> list[str]:
        return list(SPLITS)

    def list_ids(self, split: str | None = None, graded_only: bool = False) -> list[str]:
        return split_ids(split) if split else known_ids()

    def resolve(
        self,
        task_id: str,
        *,
        data_dir: str | Path | None = None,
        judge_model: str | None = None,
        judge_api_base: str | None = None,
        max_judge_cost: float | None = None,
        code_dev: bool = False,
        resources_provided: bool = False,
        reproduce_timeout: float | None = None,
        agent_network: str = "on",
        **_other_benchmarks: Any,
    ) -> PaperTask:
        ref = f"paperbench/{task_id}"
        if task_id not in known_ids():
            raise UnknownTask(
                f"unknown task {ref!r} (see python -m bench_adapters list --benchmark paperbench)"
            )
        root = demo_data_dir() if task_id == DEMO_ID else data_dir
        paper = find_paper(ref, task_id, root)
        paper.check(ref)
        options = PaperOptions(
            judge_model=judge_model,
            judge_api_base=judge_api_base,
            max_judge_cost=max_judge_cost,
            code_dev=bool(code_dev),
            resources_provided=bool(resources_provided),
            reproduce_timeout=reproduce_timeout,
            agent_network=agent_network,
            data_dir=None if task_id == DEMO_ID or data_dir is None else str(data_dir),
        )
        return PaperTask(id=ref, paper=paper, public_dir=stage_public(paper), options=options)

    def from_folder(self, folder: Path, **_options: Any) -> PaperTask | None:
        """Paper folders are named by reference (``paperbench/<id>``), never by path."""
        return None
