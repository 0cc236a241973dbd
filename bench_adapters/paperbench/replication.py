"""Grading one replication: find the submission, check it out, reproduce it, have the rubric
judged, and apply PaperBench's blacklist monitor.

What ``path`` can be, and what is graded:

- a folder (a repository): the folder as it is;
- a ``.bundle`` file (a run's snapshot): a fresh checkout of its last commit;
- a run folder (one holding ``run.json``): its last snapshot, else its ``submission/``.

Work goes to ``<run>/grading/<digest>/`` when the submission belongs to a run, else to
``grading/<digest>/`` in the private cache (``layout.cache_root``); ``<digest>`` names the
submission's content, and the report gives the path. It holds ``checkout/`` (a bundle's
checkout), ``reproduction/`` (see ``reproduce``) and ``judge.jsonl``. A grading killed midway
resumes there, and grading the same submission again costs nothing: a finished reproduction is
reused and the judge log answers every leaf already graded with the same prompt. The agent user
cannot enter the private cache, so a reproduction for it runs in a temporary folder that is
moved into place once finished (and removed either way).

Without a judge model nothing is reproduced or judged: the report says the submission is
ungraded and gives the command that grades it. When the submission belongs to a run whose tool
calls broke the blacklist rule (``monitor``), the score is 0 and the report says why.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench_adapters.paperbench.layout import cache_root
from bench_adapters.paperbench.monitor import blacklist_violations, monitor_report
from bench_adapters.paperbench.reproduce import Reproduction, listing, reproduce
from bench_adapters.paperbench.snapshot import checkout_bundle

if TYPE_CHECKING:
    from bench_adapters.paperbench.task import PaperTask
    from scaffolds.protocols import Model

GRADINGS = "grading"


@dataclass(frozen=True)
class Source:
    """What a grading reads: a folder or a bundle, and the run it belongs to (if any)."""

    path: Path
    is_bundle: bool
    run_dir: Path | None


def run_of(path: Path) -> Path | None:
    """The run folder ``path`` is, or belongs to (``<run>/submission``,
    ``<run>/snapshots/submission.bundle``)."""
    for candidate in (path, path.parent, path.parent.parent):
        if (candidate / "run.json").is_file() and (candidate / "trajectory.jsonl").exists():
            return candidate
    return None


def locate(path: Path) -> Source:
    path = path.absolute()
    run_dir = run_of(path)
    if run_dir == path:
        bundle = path / "snapshots" / "submission.bundle"
        path = bundle if bundle.is_file() else path / "submission"
    return Source(path, path.is_file() and path.suffix == ".bundle", run_dir)


def digest(source: Source) -> str:
    """Names the submission's content: a bundle's bytes, a folder's paths, sizes and times."""
    h = hashlib.sha256()
    if source.is_bundle:
        with open(source.path, "rb") as f:
            while chunk := f.read(1 << 20):
                h.update(chunk)
    elif source.path.is_dir():
        for rel, (size, mtime) in sorted(listing(source.path).items()):
            h.update(f"{rel}\0{size}\0{mtime}\n".encode())
    return h.hexdigest()[:12]


def work_dir(source: Source) -> Path:
    """``<run>/grading/<digest>``, or ``grading/<digest>`` in the private cache."""
    work = (source.run_dir or cache_root()) / GRADINGS / digest(source)
    work.mkdir(parents=True, exist_ok=True)
    os.chmod(work, 0o711)  # the agent user passes through to its reproduction, no further
    return work


def _agent_can_enter(folder: Path) -> bool:
    """Whether every folder down to ``folder`` lets other users through (a harness that is
    not root runs the agent as itself)."""
    if os.geteuid() != 0:
        return True
    return all(os.stat(p).st_mode & stat.S_IXOTH for p in [folder, *folder.parents])


def checkout(source: Source, work: Path) -> Path:
    """The folder to grade: a bundle's checkout (made once), or the folder itself."""
    if not source.is_bundle:
        return source.path
    folder = work / "checkout"
    if not (folder / ".git").is_dir():
        if folder.exists():
            folder.rename(work / f"checkout.incomplete-{time.time_ns()}")
        checkout_bundle(source.path, folder)
    return folder


def reproduction_of(
    folder: Path, work: Path, timeout_s: float, agent_user: str | None, network: str = "on"
) -> Reproduction:
    """The finished reproduction in ``work``, or a new one (an unfinished one is set aside)."""
    out = work / "reproduction"
    done = Reproduction.load(out)
    if done is not None:
        return done
    if out.exists():
        out.rename(work / f"reproduction.incomplete-{time.time_ns()}")
    if _agent_can_enter(work):
        return reproduce(folder, out, timeout_s, agent_user, network=network)
    scratch = Path(tempfile.mkdtemp(prefix="paperbench-reproduction-"))
    try:
        os.chmod(scratch, 0o711)
        done = reproduce(folder, scratch / "reproduction", timeout_s, agent_user, network=network)
        done = done.moved(scratch / "reproduction", out)  # its record names the final paths
        incoming = work / f"reproduction.incoming-{time.time_ns()}"
        shutil.move(scratch / "reproduction", incoming)  # a copy when across file systems
        os.rename(incoming, out)  # complete, or not there at all
        return done
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def grade_command(task: PaperTask, source: Source) -> str:
    flags = task.options.flags()
    if task.options.judge_model is None:
        flags = f"--judge-model MODEL {flags}".strip()
    submission = shlex.quote(str(source.path))
    return f"python -m bench_adapters grade --task {task.id} --submission {submission} {flags}"


def grade_replication(
    task: PaperTask, path: Path, agent_user: str | None = None, model: Model | None = None
) -> dict[str, Any]:
    """The grade report (``grade.json``) of the submission at ``path``; ``model`` overrides
    the task's judge model (tests pass a scripted one)."""
    from bench_adapters.paperbench.grading import GradingOptions, grade_paper

    source, options = locate(path), task.options
    exists = source.path.exists()
    judged = model is not None or options.judge_model is not None
    work = work_dir(source) if judged or source.is_bundle else None
    folder = checkout(source, work) if exists and work else source.path
    valid, contract = task.validate(folder) if exists else (False, f"nothing at {source.path}")
    reproduction = None
    if exists and judged and work and not options.code_dev:
        reproduction = reproduction_of(
            folder, work, options.reproduce_timeout_s, agent_user, options.agent_network
        )
    report = grade_paper(
        task.paper.dir,
        Path(reproduction.submission) if reproduction else folder,
        reproduction.log() if reproduction else None,
        reproduction.changed_files if reproduction else None,
        GradingOptions(
            judge_model=options.judge_model,
            judge_api_base=options.judge_api_base,
            code_dev=options.code_dev,
            resources_provided=options.resources_provided,
            max_judge_cost=options.max_judge_cost,
            judge_log=work / "judge.jsonl" if work else None,
        ),
        model,
    )
    report.update(
        task=task.id,
        submission=str(source.path),
        submission_exists=exists,
        valid_submission=valid,
        contract=contract,
        grading_dir=str(work) if work else None,
        judge_cost_usd=(report.get("judge") or {}).get("cost_usd"),
    )
    if exists and not valid and report.get("graded"):
        # upstream reproduces and judges every submission, whatever its shape: so do we, and
        # say which rule of the contract it broke
        report["graded_although_invalid"] = contract
    if not report.get("graded"):
        report["grade_command"] = grade_command(task, source)
    if reproduction is not None:
        report["reproduction"] = _summary(reproduction)
    if source.run_dir is not None:
        _apply_monitor(report, blacklist_violations(source.run_dir, task.paper.blacklist))
    return report


def _summary(r: Reproduction) -> dict[str, Any]:
    return {
        "script_found": r.script_found,
        "exit_code": r.exit_code,
        "timed_out": r.timed_out,
        "duration_s": r.duration_s,
        "timeout_s": r.timeout_s,
        "files_created": len(r.created),
        "files_changed": len(r.changed),
        "log": r.log_path,
        "folder": r.submission,
    }


def _apply_monitor(report: dict[str, Any], violations: list[Any]) -> None:
    report["monitor"] = monitor_report(violations)
    if violations:
        report["score_before_monitor"] = report.get("score")
        report["score"] = report["normalized_reward"] = 0.0
        first = violations[0]
        report["flagged"] = (
            f"blacklisted {first.url} fetched (tool call at trajectory event "
            f"{first.event_index}, line {first.line}): the run scores 0"
        )
