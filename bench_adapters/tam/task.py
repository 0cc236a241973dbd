"""One TAM-Bench task: its prepared data, its grader, its leaderboard and its constraints.

A run on a TAM task ends with two outputs: the submission file (``submission/<file>``) and the
final code, ``best_solution.py`` (:data:`CODE_FILE`), which the constraint judge reads. The task
declares both (``submission_relpath``, ``extra_outputs``); ``grade`` finds the code next to
the submission's folder unless it is given.
"""

from __future__ import annotations

import logging
import math
import os
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bench_adapters.csvio import size_limit_bytes
from bench_adapters.instructions import render_instructions
from bench_adapters.tam.describe import describe
from bench_adapters.tam.graders import Invalid, get_grader
from bench_adapters.tam.rank import board
from bench_adapters.tam.specs import TaskInfo, constraints_of
from tools.keep import NotTaken, copy_open_file

log = logging.getLogger(__name__)


def copy_regular_file(src: Path, dst: Path, owner: int | None = None) -> bool:
    """Copy ``src`` to ``dst`` when it is a regular file of at most ``MAX_CODE_BYTES`` (and
    owned by ``owner``, when given), never following a link; False if not."""
    try:
        fd = os.open(src, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        copy_open_file(fd, dst, MAX_CODE_BYTES, owner)
    except NotTaken as exc:
        log.warning("%s not kept: %s", src, exc)
        return False
    finally:
        os.close(fd)
    return True


CODE_FILE = "best_solution.py"
MAX_CODE_BYTES = 16 * 2**20
"""The final code kept from a workspace at most (the judge reads its first 120,000 chars)."""
REPORT_FORMAT_VERSION = 1
VALID = "Submission is valid."


@dataclass(frozen=True)
class JudgeOptions:
    """How ``grade`` judges the constraints; no model means no judging."""

    model: str | None = None
    api_base: str | None = None
    max_cost_usd: float | None = None


@dataclass
class TamTask:
    """Satisfies ``scaffolds.protocols.Task``; ``grade`` returns the TAM report below.

    Report: ``score``; ``made_submission`` (a file is there; ``submission_exists`` is the same,
    for MLE-bench's tools); ``valid_submission`` (it has the answers' structure); ``rank``,
    ``participants`` and ``rank_pct`` (a fraction in (0, 1], lower is better) on the real
    leaderboard, null without a valid score; ``normalized_reward``, the share of the leaderboard
    the score equals or beats (0 without a valid score); ``message``, the validator's reason;
    ``code_path``; and, with a judge model, ``constraint_pass`` (passed / total, 0..1) and
    ``constraints``, one verdict per constraint, or, when the judge model failed on some
    constraint, ``constraint_pass`` null and ``judge_error`` saying why.
    """

    info: TaskInfo
    prepared_dir: Path
    judge: JudgeOptions = field(default_factory=JudgeOptions)
    benchmark: str = "tam"
    extra_outputs: tuple[str, ...] = (CODE_FILE,)
    """Files besides the submission a run must leave in the workspace root."""
    prompt_set: str = "tam"
    submission_is_folder: bool = False
    has_metric: bool = True

    def __post_init__(self) -> None:
        self.id = self.info.ref
        self.public_dir = self.prepared_dir / "public"
        self.submission_relpath = f"submission/{self.info.submission}"
        self.is_lower_better = self.info.lower_is_better

    @property
    def private_dir(self) -> Path:
        return self.prepared_dir / "private"

    @property
    def answers_path(self) -> Path:
        return self.private_dir / self.info.answers

    @property
    def sample_submission_path(self) -> Path | None:
        return self.public_dir / self.info.sample if self.info.sample else None

    def private_paths(self) -> list[Path]:
        """What the agent must never read (``HasPrivateFiles``): the ``prepared/private``
        folder, which holds the answers."""
        return [self.private_dir]

    @property
    def constraints(self) -> list[str]:
        return constraints_of(self.info.id)

    def instructions(self, *, hardware: str, time_limit_s: float, max_steps: int | None) -> str:
        return render_instructions(
            self.prompt_set,
            description=describe(self.info, self.public_dir, self.submission_relpath),
            hardware=hardware,
            time_limit_s=time_limit_s,
            max_steps=max_steps,
            submission_relpath=self.submission_relpath,
        )

    def keep_final(self, run: Any) -> None:
        """Keep the final code beside the record, or record that there is none (called once
        the agent's processes have ended). AIDE writes its best node's code there itself;
        other scaffolds' agents were told to leave it in the workspace root, from where it is
        copied by descriptor: a link, anything but a regular file owned by the agent, or a
        file over ``MAX_CODE_BYTES`` is not taken."""
        kept = run.dir / CODE_FILE
        source = "scaffold"
        if kept.is_symlink() or not kept.is_file():
            owner = run.sandbox.uid if run.sandbox.isolated else None
            found = copy_regular_file(run.workspace.root / CODE_FILE, kept, owner)
            source = "workspace" if found else ""
        if source:
            run.record.event("final_code", path=CODE_FILE, source=source)
        else:
            missing = f"the run left no {CODE_FILE} (every constraint fails)"
            run.record.event("final_code", path=None, missing=missing)
        run.record.update(final_code=CODE_FILE if source else None)

    # --- checking and scoring ----------------------------------------------------------------

    def max_submission_bytes(self) -> int:
        """The largest submission worth reading (``csvio.size_limit_bytes``)."""
        references = [self.answers_path]
        if self.sample_submission_path is not None:
            references.append(self.sample_submission_path)
        return size_limit_bytes(*references)

    def _score(self, path: Path) -> tuple[float | None, str]:
        """(score, message): a score only for a file with the answers' structure."""
        if path.is_symlink() or not path.is_file():
            return None, f"Submission invalid! Submission file {path} does not exist."
        if path.suffix.lower() != Path(self.info.submission).suffix:
            return None, f"Submission invalid! The file must be a {self.info.submission} file."
        limit = self.max_submission_bytes()
        if path.stat().st_size > limit:
            return None, f"Submission invalid! The file is larger than {limit} bytes."
        try:
            score = get_grader(self.info.id)(path, self.answers_path)
        except Invalid as e:
            return None, f"Submission invalid! {e}"
        except Exception as e:  # the answers or this package are at fault, not the agent
            log.error("%s: grader error on %s: %s: %s", self.id, path, type(e).__name__, e)
            return None, f"Submission could not be graded: {type(e).__name__}: {e}"
        if not math.isfinite(score):
            return None, f"Submission invalid! Its {self.info.metric} is {score}."
        return round(float(score), 5), VALID

    def validate(self, path: Path) -> tuple[bool, str]:
        """Structure only (columns, ids, types): never a score, never an exception."""
        score, message = self._score(Path(path))
        return score is not None, message

    def find_code(self, submission: Path) -> Path:
        """Where the final code of the run that wrote ``submission`` is: the folder holding the
        ``submission/`` folder (a run's folder), else the submission's own folder."""
        parts = Path(self.submission_relpath).parts
        root = submission.parents[len(parts) - 1] if submission.parent.name == parts[0] else None
        candidates = ([root / CODE_FILE] if root is not None else []) + [
            submission.parent / CODE_FILE
        ]
        return next((p for p in candidates if p.is_file() and not p.is_symlink()), candidates[0])

    def grade(self, path: Path, code: Path | None = None) -> dict[str, Any]:
        path = Path(path)
        made = path.is_file() and not path.is_symlink()
        score, message = self._score(path)
        place = board(self.info.id).rank(score) if score is not None else None
        code = Path(code) if code is not None else self.find_code(path)
        report: dict[str, Any] = {
            "format_version": REPORT_FORMAT_VERSION,
            "task": self.id,
            "competition_id": self.info.name,
            "modality": self.info.modality_label,
            "difficulty": self.info.difficulty,
            "metric": self.info.metric,
            "is_lower_better": self.is_lower_better,
            "score": score,
            "made_submission": made,
            "submission_exists": made,
            "valid_submission": score is not None,
            "message": message,
            **(place.to_dict() if place else dict.fromkeys(("rank", "participants", "rank_pct"))),
            "normalized_reward": board(self.info.id).reward(score) if score is not None else 0.0,
            "submission_path": str(path),
            "code_path": str(code) if code.is_file() and not code.is_symlink() else None,
            "constraint_pass": None,
            "constraints": None,
            "judge_model": self.judge.model,
            "judge_error": None,
            "created_at": datetime.now().isoformat(),
        }
        if self.judge.model:
            from bench_adapters.tam.constraints import judge_code

            result = judge_code(self, code, self.judge)
            report["constraint_pass"] = result.pass_rate
            report["judge_error"] = result.judge_error
            report["constraints"] = [v.to_dict() for v in result.verdicts]
            report["judge_usage"] = result.usage
        return report
