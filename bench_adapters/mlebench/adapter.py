"""MLE-bench competitions as Tasks: upstream's prepared data, leaderboards and grading rules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench_adapters.errors import UnknownTask
from bench_adapters.mlebench.data import (
    LOWER_IS_BETTER,
    load_info,
    resolve_checkout,
    resolve_data_dir,
)
from bench_adapters.mlebench.known_issues import known_issues
from bench_adapters.mlebench.splits import SPLITS, known_ids, split_ids
from bench_adapters.task import CompetitionTask, GraderSpecLike, check_prepared
from scaffolds.protocols import PlannedRun, ReportSection


def graded_ids() -> list[str]:
    """Competitions with a native grader in this package."""
    from bench_adapters.mlebench.graders import supported_competitions

    return sorted(supported_competitions())


def grader_spec(competition_id: str) -> GraderSpecLike:
    from bench_adapters.mlebench.graders import get_grader

    spec = get_grader(competition_id)
    if spec is None:
        raise UnknownTask(f"unknown task 'mlebench/{competition_id}': no native grader")
    return spec


class MLEBench:
    """The ``mlebench`` benchmark. Options: ``data_dir``, ``mlebench_dir``, ``obfuscate``."""

    name = "mlebench"
    submits_folders = False

    def splits(self) -> list[str]:
        return list(SPLITS)

    def needs_gpu(self, task_id: str) -> bool:
        """Every competition outside upstream's ``cpu_only`` split needs a GPU."""
        return task_id not in split_ids("cpu_only")

    def list_ids(self, split: str | None = None, graded_only: bool = False) -> list[str]:
        ids = split_ids(split) if split else known_ids()
        if graded_only:
            graded = set(graded_ids())
            ids = [i for i in ids if i in graded]
        return ids

    def known_issues(self, task_id: str) -> list[str]:
        """One line per known problem of upstream's competition (most have none)."""
        return [issue.line() for issue in known_issues(task_id)]

    def report_sections(
        self, rows: list[dict[str, Any]], plan: list[PlannedRun]
    ) -> list[ReportSection]:
        """The known issues of the competitions the grid planned, listed under its tables."""
        tasks = dict.fromkeys(r.task for r in plan if r.task.startswith(f"{self.name}/"))
        lines = [
            f"- `{task}`: {line}"
            for task in tasks
            for line in self.known_issues(task.partition("/")[2])
        ]
        if not lines:
            return []
        head = ["", "## Known issues of the MLE-bench competitions run", "",
                "Upstream problems that may affect these competitions' scores "
                "(`python -m bench_adapters list --known-issues`):", ""]  # fmt: skip
        return [ReportSection("\n".join(head + lines) + "\n")]

    def resolve(
        self,
        task_id: str,
        *,
        data_dir: str | Path | None = None,
        mlebench_dir: str | Path | None = None,
        obfuscate: bool = False,
        **_other_benchmarks: Any,
    ) -> CompetitionTask:
        if task_id not in graded_ids():
            known = task_id in known_ids()
            why = "has no native grader yet" if known else "is not an MLE-bench competition"
            raise UnknownTask(
                f"unknown task 'mlebench/{task_id}': it {why} "
                "(see `python -m bench_adapters list --benchmark mlebench --graded`)"
            )
        prepared = resolve_data_dir(data_dir) / task_id / "prepared"
        return self._build(task_id, prepared, resolve_checkout(mlebench_dir), obfuscate, None)

    def from_folder(
        self,
        folder: Path,
        *,
        mlebench_dir: str | Path | None = None,
        obfuscate: bool = False,
        **_other_options: Any,
    ) -> CompetitionTask | None:
        if folder.name not in graded_ids():
            return None
        board = folder / "leaderboard.csv"
        checkout = resolve_checkout(mlebench_dir)
        return self._build(
            folder.name,
            folder / "prepared",
            checkout,
            obfuscate,
            board if board.is_file() else None,
        )

    def _build(
        self,
        competition_id: str,
        prepared: Path,
        checkout: Path | None,
        obfuscate: bool,
        leaderboard_path: Path | None,
    ) -> CompetitionTask:
        spec = grader_spec(competition_id)
        hint = (
            f"run upstream's `mlebench prepare -c {competition_id}`, "
            "or point --data-dir / MLEBENCH_DATA_DIR at prepared data"
        )
        check_prepared(f"mlebench/{competition_id}", prepared, spec.answers, hint)
        info = load_info(competition_id, prepared, checkout, leaderboard_path)
        direction = getattr(spec, "is_lower_better", None)
        if direction is None:
            direction = competition_id in LOWER_IS_BETTER
        task = CompetitionTask(
            id=f"mlebench/{competition_id}",
            benchmark=self.name,
            competition_id=competition_id,
            name=info.name,
            prepared_dir=prepared,
            grader_spec=spec,
            description=info.description_obfuscated if obfuscate else info.description,
            leaderboard=info.leaderboard,
            prompt_set="mlebench",
            obfuscate=obfuscate,
            default_is_lower_better=bool(direction),
            no_leaderboard_reason=info.no_leaderboard_reason,
            prepare_hint=hint,
        )
        return task
