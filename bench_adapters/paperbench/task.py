"""One PaperBench paper as a Task: instructions, the submission contract, snapshots, grading.

Satisfies ``scaffolds.protocols.Task``. The submission is a folder, ``submission/``: a git
repository with ``reproduce.sh`` and a README (``contract``). The agent's workspace gets the
paper's public files as ``data/paper/``; the rubric and the judge addendum stay in the paper
folder on the harness side.

Beyond the protocol, scaffolds use three optional members (each found with ``getattr``):

- ``submission_is_folder``: the submission tools validate a folder, not a file;
- ``progress_note(steps, elapsed_s, time_limit_s)``: a line the loop adds to its reminders
  every ``REMINDER_EVERY`` steps (time elapsed and left, and a nudge to commit);
- ``snapshot(run, final)``: called by ``scaffolds.runtime.Run`` at every checkpoint and at the
  end; keeps ``<run>/snapshots/submission.bundle`` and returns it, the file to grade.
"""

from __future__ import annotations

import os
import shlex
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import prompts
from bench_adapters.instructions import step_limit_text
from bench_adapters.options import grade_flags
from bench_adapters.paperbench.contract import check_submission
from bench_adapters.paperbench.layout import PRIVATE, Paper
from bench_adapters.paperbench.reproduce import DEFAULT_TIMEOUT_S
from bench_adapters.paperbench.snapshot import SnapshotError, refs_fingerprint, write_bundle
from scaffolds.timefmt import format_duration, format_hms

PROMPTS = "paperbench"
SNAPSHOTS = "snapshots"
BUNDLE = "submission.bundle"
REMINDER_EVERY = 5
"""Steps between progress notes (upstream BasicAgent's ``reminder_freq``)."""
SNAPSHOT_EVERY_S = 600.0
"""Least wall time between two snapshots during a run; the final one is always taken."""
EMPTY_BUNDLE = "empty bundle"
"""In git's refusal to bundle a repository without a commit."""


@dataclass
class PaperOptions:
    """The task options a PaperBench task takes (declared in ``bench_adapters.options``)."""

    judge_model: str | None = None
    judge_api_base: str | None = None
    max_judge_cost: float | None = None
    code_dev: bool = False
    resources_provided: bool = False
    reproduce_timeout: float | None = None
    """Seconds ``reproduce.sh`` may run; a scaffold run passes its own time limit."""
    data_dir: str | None = None
    """The data folder the paper was found in, when given (not the bundled demo's)."""
    agent_network: str = "on"
    """``reproduce.sh``'s network: ``on`` (upstream's container has it) or ``off`` (loopback
    only), as the run's own ``--agent-network``."""

    @property
    def reproduce_timeout_s(self) -> float:
        return self.reproduce_timeout or DEFAULT_TIMEOUT_S

    def flags(self) -> str:
        """These options as ``python -m bench_adapters grade`` flags."""
        flags = grade_flags("paperbench", asdict(self))
        return " ".join(shlex.quote(part) for part in flags)


@dataclass
class PaperTask:
    """A paper to replicate. Build it with ``PaperBench().resolve``."""

    id: str
    paper: Paper
    public_dir: Path
    """Holds ``paper/`` (the public files only): the workspace's ``data/`` is a copy of it."""
    options: PaperOptions = field(default_factory=PaperOptions)
    benchmark: str = "paperbench"
    submission_relpath: str = "submission"
    submission_is_folder: bool = True
    is_lower_better: bool = False
    has_metric: bool = False
    """There is no metric a script can compute: a rubric judge grades the repository."""
    snapshot_every_s: float = SNAPSHOT_EVERY_S
    _refs: Any = field(default=None, init=False, repr=False)
    _snapshot_at: float = field(default=float("-inf"), init=False, repr=False)
    _agent_user: str | None = field(default=None, init=False, repr=False)
    """The run's agent user, once a snapshot saw it (None: the sandbox's default)."""

    # what the agent reads

    def instructions(self, *, hardware: str, time_limit_s: float, max_steps: int | None) -> str:
        blacklist = self.paper.blacklist
        listed = "\n".join(f"  - {url}" for url in blacklist) or "  - (none for this paper)"
        grading = "grading_code_dev" if self.options.code_dev else "grading_full"
        pdf = (self.paper.dir / "paper.pdf").is_file()
        values = {
            "title": self.paper.title(),
            "pdf_note": " (also as `paper.pdf`)" if pdf else "",
            "blacklist": listed,
            "submission_path": self.submission_relpath,
            "hardware": hardware,
            "time_limit": format_duration(time_limit_s),
            "step_limit": step_limit_text(max_steps),
            "reproduce_limit": format_duration(self.options.reproduce_timeout_s),
        }
        values["grading"] = prompts.render(PROMPTS, grading, values, trim="whitespace")
        rules = prompts.render(PROMPTS, "instructions", values, trim="whitespace")
        notes = prompts.render(PROMPTS, "notes", values, trim="whitespace")
        return prompts.render(PROMPTS, "task", trim="whitespace", instructions=rules, notes=notes)

    def progress_note(self, steps: int, elapsed_s: float, time_limit_s: float) -> str | None:
        """Every ``REMINDER_EVERY`` steps: time elapsed and left, and a nudge to commit."""
        if steps <= 0 or steps % REMINDER_EVERY:
            return None
        return prompts.render(
            PROMPTS,
            "reminder",
            trim="whitespace",
            elapsed=format_hms(elapsed_s),
            time_limit=format_hms(time_limit_s),
            left=format_hms(time_limit_s - elapsed_s),
            submission_path=self.submission_relpath,
        )

    def validate(self, path: Path) -> tuple[bool, str]:
        return check_submission(Path(path))

    def private_paths(self) -> list[Path]:
        """What the agent must never read: the paper's private files as they lie on disk
        (``layout.PRIVATE``: the rubric, the judge addendum, ``judge/``, those that exist), and
        for the bundled demo paper the package's own copies of its private files."""
        from bench_adapters.paperbench.demo import DEMO_ID, package_private_files

        on_disk = [self.paper.dir / name for name in PRIVATE]
        paths = [p for p in on_disk if os.path.lexists(p) or p == self.paper.rubric_path]
        if self.paper.id == DEMO_ID:
            paths += package_private_files()
        return paths

    # what the harness does

    def snapshot(self, run: Any, final: bool = False) -> Path | None:
        """Bundle the run's submission repository into ``<run>/snapshots/submission.bundle``
        when its refs changed since the last bundle (at most every ``snapshot_every_s``
        seconds, and always at the end). Returns the latest bundle, or None when there is
        none (no repository or no commit yet)."""
        self._agent_user = run.sandbox.user or self._agent_user
        repo = run.workspace.root / self.submission_relpath
        dest = run.dir / SNAPSHOTS / BUNDLE
        refs = refs_fingerprint(repo)
        due = final or time.monotonic() - self._snapshot_at >= self.snapshot_every_s
        if refs is not None and refs != self._refs and due:
            self._refs = refs  # a failed attempt is retried only once the refs change again
            try:
                bundle = write_bundle(run.sandbox, repo, dest)
            except SnapshotError as exc:
                if EMPTY_BUNDLE not in str(exc):  # no commit yet is no error
                    run.record.event("snapshot", ok=False, final=final, error=str(exc))
            else:
                self._snapshot_at = time.monotonic()
                heads = [f"{ref} {commit[:12]}" for commit, ref in bundle.refs]
                run.record.event(
                    "snapshot", ok=True, final=final, path=str(dest), bytes=bundle.bytes, refs=heads
                )
        return dest if dest.is_file() else None

    def grade(self, path: Path) -> dict[str, Any]:
        """Grade a submission folder, a ``.bundle``, or a run folder (its last snapshot):
        reproduce it (not under Code-Dev), have the rubric judged, apply the blacklist
        monitor when it belongs to a run. See ``replication.grade_replication``."""
        from bench_adapters.paperbench.replication import grade_replication

        return grade_replication(self, Path(path), agent_user=self._agent_user)
