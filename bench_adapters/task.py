"""The one Task implementation every adapter builds: a prepared competition folder plus a grader.

Layout (upstream MLE-bench's): ``<prepared_dir>/public/`` is what the agent reads,
``<prepared_dir>/private/<answers>`` stays on the harness side. Grading follows upstream's
``grade_csv``; validation follows its ``validate_submission`` (see ``scoring``/``validation``).
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pandas as pd

from bench_adapters.csvio import load_answers, size_limit_bytes
from bench_adapters.errors import TaskNotPrepared
from bench_adapters.instructions import render_instructions
from bench_adapters.leaderboard import Leaderboard
from bench_adapters.report import build_report
from bench_adapters.scoring import score_file
from bench_adapters.validation import check_path, validate_file

log = logging.getLogger(__name__)

_COPY_ON_WRITE = int(pd.__version__.split(".")[0]) >= 3


class GraderSpecLike(Protocol):
    """The shape of ``bench_adapters.mlebench.graders.GraderSpec`` (read-only members)."""

    @property
    def competition_id(self) -> str: ...

    @property
    def answers(self) -> str:
        """File under ``prepared/private/``."""
        ...

    @property
    def sample_submission(self) -> str:
        """Path under ``prepared/``."""
        ...

    @property
    def grade(self) -> Callable[[pd.DataFrame, Any], float]: ...


def answers_loader(spec: GraderSpecLike) -> Callable[[Path], Any]:
    """How ``spec``'s answers file is read: its own ``load_answers`` where it has one (answers
    far larger than what grading needs), else as upstream reads them."""
    return getattr(spec, "load_answers", None) or load_answers


def check_prepared(ref: str, prepared_dir: Path, answers: str, hint: str = "") -> None:
    """Raise ``TaskNotPrepared`` unless ``prepared/private`` is non-empty and holds ``answers``."""
    private = prepared_dir / "private"
    if not private.is_dir() or not any(private.iterdir()) or not (private / answers).is_file():
        more = f"; {hint}" if hint else ""
        raise TaskNotPrepared(f"{ref}: data not prepared (no answers at {private / answers}){more}")


@dataclass
class CompetitionTask:
    """A task graded like an MLE-bench competition. Satisfies ``scaffolds.protocols.Task``."""

    id: str
    benchmark: str
    competition_id: str
    name: str
    prepared_dir: Path
    grader_spec: GraderSpecLike
    description: str
    leaderboard: Leaderboard | None
    prompt_set: str
    obfuscate: bool = False
    default_is_lower_better: bool = False
    """Direction used only when there is no leaderboard to derive it from."""
    no_leaderboard_reason: str = ""
    prepare_hint: str = ""
    """Appended to the not-prepared message: how to prepare this task's data."""
    submission_relpath: str = "submission/submission.csv"
    submission_is_folder: bool = False
    has_metric: bool = True
    public_dir: Path = field(init=False)
    is_lower_better: bool = field(init=False)
    _answers_cache: tuple[tuple[int, int], Any] | None = field(init=False, default=None, repr=False)

    def __post_init__(self) -> None:
        self.public_dir = self.prepared_dir / "public"
        if self.leaderboard is not None:
            self.is_lower_better = self.leaderboard.is_lower_better
        else:
            self.is_lower_better = self.default_is_lower_better

    @property
    def private_dir(self) -> Path:
        return self.prepared_dir / "private"

    @property
    def answers_path(self) -> Path:
        return self.private_dir / self.grader_spec.answers

    @property
    def sample_submission_path(self) -> Path:
        return self.prepared_dir / self.grader_spec.sample_submission

    def private_paths(self) -> list[Path]:
        """What the agent must never read: the whole ``prepared/private`` folder."""
        return [self.private_dir]

    def instructions(self, *, hardware: str, time_limit_s: float, max_steps: int | None) -> str:
        return render_instructions(
            self.prompt_set,
            description=self.description,
            hardware=hardware,
            time_limit_s=time_limit_s,
            max_steps=max_steps,
            obfuscate=self.obfuscate,
            submission_relpath=self.submission_relpath,
        )

    def ensure_prepared(self) -> None:
        """Upstream's grading-only check: a non-empty private dir holding the answers file."""
        check_prepared(self.id, self.prepared_dir, self.grader_spec.answers, self.prepare_hint)

    def _answers(self) -> Any:
        """The answers, read once per file version, handed out as a copy (shallow under
        copy-on-write) each time."""
        stat = self.answers_path.stat()
        key = (stat.st_mtime_ns, stat.st_size)
        if self._answers_cache is None or self._answers_cache[0] != key:
            self._answers_cache = (key, answers_loader(self.grader_spec)(self.answers_path))
        answers = self._answers_cache[1]
        if isinstance(answers, pd.DataFrame):
            # Under copy-on-write (pandas >= 3) a shallow copy keeps a grader's edits off the
            # cache without a second copy of the data (13 M rows in icecube's answers).
            return answers.copy(deep=not _COPY_ON_WRITE)
        return copy.deepcopy(answers)

    def max_submission_bytes(self) -> int:
        """The largest submission worth reading (``csvio.size_limit_bytes``)."""
        return size_limit_bytes(self.answers_path, self.sample_submission_path)

    def validate(self, path: Path) -> tuple[bool, str]:
        path = Path(path)
        failed = check_path(path)
        if failed is not None:
            return failed
        self.ensure_prepared()
        return validate_file(
            path, self.grader_spec.grade, self._answers, self.max_submission_bytes()
        )

    def grade(self, path: Path) -> dict[str, Any]:
        path = Path(path)
        self.ensure_prepared()
        exists = path.is_file() and path.suffix.lower() == ".csv"
        score = None
        if exists:
            score = score_file(
                path, self.grader_spec.grade, self._answers, self.max_submission_bytes()
            )
        else:
            log.warning("Invalid submission file: %s (it must exist and be a CSV)", path)
        if self.leaderboard is None:
            log.warning("%s: %s; medal fields are null", self.id, self.no_leaderboard_reason)
        return build_report(
            competition_id=self.competition_id,
            score=score,
            submission_exists=exists,
            submission_path=str(path),
            is_lower_better=self.is_lower_better,
            leaderboard=self.leaderboard,
        )
