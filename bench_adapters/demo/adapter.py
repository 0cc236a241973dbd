"""The ``demo`` benchmark: three tiny competitions that run anywhere, graded like MLE-bench."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench_adapters.demo.cache import demo_root, ensure_generated
from bench_adapters.demo.specs import DEMO_IDS, INFO, demo_grader_spec
from bench_adapters.errors import UnknownTask
from bench_adapters.leaderboard import Leaderboard
from bench_adapters.task import CompetitionTask


class Demo:
    """Options: ``demo_dir`` (cache root), ``obfuscate``; other benchmarks' options are ignored."""

    name = "demo"
    submits_folders = False

    def needs_gpu(self, task_id: str) -> bool:
        """The demo tasks are small: a CPU is enough."""
        return False

    def splits(self) -> list[str]:
        return ["all"]

    def list_ids(self, split: str | None = None, graded_only: bool = False) -> list[str]:
        return list(DEMO_IDS)

    def resolve(
        self,
        task_id: str,
        *,
        demo_dir: str | Path | None = None,
        obfuscate: bool = False,
        **_other_benchmarks: Any,
    ) -> CompetitionTask:
        if task_id not in DEMO_IDS:
            raise UnknownTask(f"unknown task 'demo/{task_id}' (demo tasks: {', '.join(DEMO_IDS)})")
        folder = ensure_generated(task_id, demo_root(demo_dir))
        return self._build(folder, obfuscate)

    def from_folder(
        self, folder: Path, *, obfuscate: bool = False, **_other_options: Any
    ) -> CompetitionTask | None:
        if folder.name not in DEMO_IDS:
            return None
        return self._build(folder, obfuscate)

    def _build(self, folder: Path, obfuscate: bool) -> CompetitionTask:
        task_id = folder.name
        board = folder / "leaderboard.csv"
        task = CompetitionTask(
            id=f"demo/{task_id}",
            benchmark=self.name,
            competition_id=task_id,
            name=INFO[task_id].title,
            prepared_dir=folder / "prepared",
            grader_spec=demo_grader_spec(task_id),
            description=(folder / "description.md").read_text(encoding="utf-8"),
            leaderboard=Leaderboard.from_csv(board) if board.is_file() else None,
            prompt_set="demo",
            obfuscate=obfuscate,
            default_is_lower_better=INFO[task_id].is_lower_better,
            no_leaderboard_reason=f"no leaderboard.csv in {folder}",
            prepare_hint="delete the folder to have it generated again",
        )
        task.ensure_prepared()
        return task
