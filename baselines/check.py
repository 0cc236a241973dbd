"""The grader sanity check: four kinds of submission per task, graded by the real grader.

For each task (``check_task``):

1. the private answers in submission form: valid, and a gold medal;
2. the sample submission: valid, and not above the median;
3. the baseline's submission: valid, better than the sample, and above the median;
4. corrupted copies of the sample (its last column dropped; its last row dropped): invalid,
   with a message, from both ``validate`` and ``grade``.

Upstream's own validity wins where its metric breaks an expectation: a grader's
``check_notes`` names such submissions and says why (a perfect submission scoring ``-inf``,
a sample scoring NaN that no baseline can beat, a partial submission upstream scores), and
the evidence carries that reason instead of a failure.

Every expectation ends ``pass``, ``fail`` or ``skip``, with the evidence. A medal expectation
is never passed without a leaderboard: it is skipped, with the reason. Tasks whose data is not
prepared (or that this package cannot grade) are skipped whole, with the reason.
"""

from __future__ import annotations

import contextlib
import shutil
import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

import pandas as pd

from baselines.judges import (
    Outcome,
    Status,
    guarded,
    judge_accepted,
    judge_beats_sample,
    judge_gold,
    judge_invalid,
    judge_median,
    judge_valid,
    one_line,
)
from baselines.registry import has_baseline, task_ref
from baselines.runner import run_baseline
from bench_adapters import CompetitionTask, TaskNotPrepared, UnknownTask, resolve_task

FORMAT_VERSION = 1


@dataclass
class TaskCheck:
    task: str
    status: Literal["checked", "skipped"]
    reason: str = ""
    """Why the task was skipped (empty when checked)."""
    seconds: float = 0.0
    outcomes: list[Outcome] = field(default_factory=list)


@dataclass
class CheckReport:
    """Everything one ``check`` found; saved as ``check.json``."""

    tasks: list[TaskCheck]
    smoke: bool
    created_at: str = field(default_factory=lambda: datetime.now().isoformat())
    format_version: int = FORMAT_VERSION

    def count(self, status: Status) -> int:
        return sum(o.status == status for t in self.tasks for o in t.outcomes)

    @property
    def failures(self) -> list[str]:
        """``task: submission: expectation: evidence`` for every failed expectation."""
        return [
            f"{t.task}: {o.submission}: {o.expectation}: {o.evidence}"
            for t in self.tasks
            for o in t.outcomes
            if o.status == "fail"
        ]

    @property
    def ok(self) -> bool:
        """No expectation failed and at least one was checked (all skipped is not a pass)."""
        return self.count("fail") == 0 and self.count("pass") > 0

    def to_dict(self) -> dict[str, Any]:
        checked = sum(t.status == "checked" for t in self.tasks)
        return {
            "format_version": self.format_version,
            "created_at": self.created_at,
            "smoke": self.smoke,
            "summary": {
                "ok": self.ok,
                "passed": self.count("pass"),
                "failed": self.count("fail"),
                "skipped": self.count("skip"),
                "tasks_checked": checked,
                "tasks_skipped": len(self.tasks) - checked,
            },
            "failures": self.failures,
            "tasks": [asdict(t) for t in self.tasks],
        }


# ---------------------------------------------------------------------------------------------
# Building the submissions


def read_as_text(path: Path) -> pd.DataFrame:
    """A CSV with every cell kept as its exact text, so writing it back changes no value."""
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def write_gold(task: CompetitionTask, path: Path) -> None:
    """The answers in submission form: the declared gold submission, or the answers file cut
    to the sample submission's columns (in its column order), or, where the answers lack
    those columns, the answers file itself (upstream's default gold; e.g. jigsaw-unintended-
    bias, whose grader accepts the answers' ``toxicity`` for ``prediction``)."""
    gold_name = getattr(task.grader_spec, "gold_submission", None)
    if gold_name:
        shutil.copyfile(task.private_dir / gold_name, path)
        return
    if task.answers_path.suffix.lower() != ".csv":
        raise ValueError(f"answers {task.answers_path.name} are not a CSV")
    columns = list(pd.read_csv(task.sample_submission_path, nrows=0).columns)
    answers = read_as_text(task.answers_path)
    if not set(columns) <= set(answers.columns):  # upstream's gold: the answers file as it is
        shutil.copyfile(task.answers_path, path)
        return
    answers[columns].to_csv(path, index=False)


def write_corrupted(task: CompetitionTask, folder: Path) -> dict[str, Path]:
    """The sample submission without its last column, and without its last row."""
    sample = read_as_text(task.sample_submission_path)
    paths = {"missing-column": folder / "missing-column.csv"}
    sample.drop(columns=sample.columns[-1]).to_csv(paths["missing-column"], index=False)
    paths["wrong-row-count"] = folder / "wrong-row-count.csv"
    sample.iloc[:-1].to_csv(paths["wrong-row-count"], index=False)
    return paths


# ---------------------------------------------------------------------------------------------
# One task, many tasks


@dataclass
class CheckOptions:
    out_dir: Path
    """Check files go to ``out_dir/<benchmark>-<id>/``, the report to ``out_dir/check.json``."""
    task_options: dict[str, Any] = field(default_factory=dict)
    """``resolve_task`` options: data_dir, mlebench_dir, demo_dir."""
    smoke: bool = False
    """Baselines train on a small sample; their "above median" expectation is then skipped."""
    time_budget_s: float | None = None
    threads: int | None = None
    device: str | None = None
    """Passed to the baselines that train networks (``cuda``, ``cpu``; None: their choice)."""
    pretrained: str | None = None
    """Passed to the baselines that start from pretrained weights (``none``: random ones)."""
    baselines: bool = True
    """False: the grader's checks alone (answers, sample, corrupted copies); no baseline runs."""


def check_task(ref: str, options: CheckOptions) -> TaskCheck:
    """The four submissions of one task; a task that cannot be resolved is skipped."""
    ref = task_ref(ref)
    start = time.monotonic()
    try:
        task = resolve_task(ref, **options.task_options)
    except (TaskNotPrepared, UnknownTask) as e:
        return TaskCheck(ref, "skipped", reason=str(e).removeprefix(f"{ref}: "))
    folder = options.out_dir / ref.replace("/", "-")
    folder.mkdir(parents=True, exist_ok=True)
    if task.submission_is_folder:  # a paper repository, not a CSV
        from baselines.paper_check import check_paper

        outcomes = guarded("baseline", "reproduces", lambda: check_paper(task, folder, options))
        return TaskCheck(task.id, "checked", seconds=round(time.monotonic() - start, 2),
                         outcomes=outcomes)  # fmt: skip
    if task.benchmark == "tam":  # ranks on the real leaderboard, not medals; JSON/TXT/parquet
        from baselines.tam_check import check_tam

        outcomes = guarded("gold", "valid", lambda: check_tam(task, folder, options))
        return TaskCheck(task.id, "checked", seconds=round(time.monotonic() - start, 2),
                         outcomes=outcomes)  # fmt: skip
    assert isinstance(task, CompetitionTask)  # MLE-bench and demo tasks from here on
    outcomes = [
        *guarded("gold", "valid", lambda: check_gold(task, folder)),
        *guarded("sample", "valid", lambda: check_sample(task)),
        *guarded("baseline", "valid", lambda: check_baseline(task, folder, options)),
        *guarded("corrupted", "invalid, with a message", lambda: check_corrupted(task, folder)),
    ]
    seconds = round(time.monotonic() - start, 2)
    return TaskCheck(task.id, "checked", seconds=seconds, outcomes=outcomes)


def check_notes(task: CompetitionTask) -> Mapping[str, str]:
    """Submissions upstream grades against the usual expectation, with why (by name)."""
    return getattr(task.grader_spec, "check_notes", None) or {}


def noted(outcomes: list[Outcome], note: str | None) -> list[Outcome]:
    """The outcomes with upstream's reason added to their evidence."""
    if note:
        for outcome in outcomes:
            outcome.evidence += f" ({note})"
    return outcomes


def check_gold(task: CompetitionTask, folder: Path) -> list[Outcome]:
    path = folder / "gold.csv"
    write_gold(task, path)
    report = task.grade(path)
    outcomes = [judge_valid(task, "gold", report, path), judge_gold(task, report)]
    return noted(outcomes, check_notes(task).get("gold"))


def check_sample(task: CompetitionTask) -> list[Outcome]:
    report = task.grade(task.sample_submission_path)
    outcomes = [
        judge_valid(task, "sample", report, task.sample_submission_path),
        judge_median(task, "sample", report, above=False),
    ]
    return noted(outcomes, check_notes(task).get("sample"))


def check_baseline(task: CompetitionTask, folder: Path, options: CheckOptions) -> list[Outcome]:
    if not has_baseline(task.id):
        return [Outcome("baseline", "valid, above median", "skip", "no baseline for this task")]
    if not options.baselines:
        return [Outcome("baseline", "valid, above median", "skip", "not run (--no-baselines)")]
    out = folder / "baseline"
    out.mkdir(parents=True, exist_ok=True)
    log = out / "log.txt"
    with open(log, "w", encoding="utf-8") as f, contextlib.redirect_stdout(f):
        try:
            run = run_baseline(
                task,
                out,
                smoke=options.smoke,
                time_budget_s=options.time_budget_s,
                threads=options.threads,
                device=options.device,
                pretrained=options.pretrained,
            )
        except Exception as e:  # a crashing baseline is a finding, not the end of the check
            traceback.print_exc(file=f)
            evidence = one_line(f"crashed: {type(e).__name__}: {e} (log: {log})")
            return [Outcome("baseline", "runs", "fail", evidence)]
    report = run.grade
    sample_score = task.grade(task.sample_submission_path)["score"]
    outcomes = [
        judge_valid(task, "baseline", report, Path(run.submission_path)),
        judge_beats_sample(task, report, sample_score, check_notes(task).get("sample")),
    ]
    if options.smoke:
        reason = "--smoke: the baseline trained on a small sample; check without --smoke"
        outcomes.append(Outcome("baseline", "above median", "skip", reason))
    else:
        outcomes.append(judge_median(task, "baseline", report, above=True))
    return outcomes


def check_corrupted(task: CompetitionTask, folder: Path) -> list[Outcome]:
    """Each corrupted copy is rejected, unless upstream scores it (its note says why)."""
    notes = check_notes(task)
    return [
        judge_accepted(task, name, path, notes[name])
        if name in notes
        else judge_invalid(task, name, path)
        for name, path in write_corrupted(task, folder).items()
    ]


def check_tasks(
    refs: list[str],
    options: CheckOptions,
    on_task: Callable[[TaskCheck], None] | None = None,
) -> CheckReport:
    """Check every task in ``refs``; ``on_task`` hears each result as soon as it is known."""
    results = []
    for ref in refs:
        result = check_task(ref, options)
        results.append(result)
        if on_task is not None:
            on_task(result)
    return CheckReport(tasks=results, smoke=options.smoke)
