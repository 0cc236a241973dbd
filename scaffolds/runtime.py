"""Setting up and closing one run: task, workspace, sandbox, kernel, tools, model, record, grade.

``open_run`` opens (or resumes) a run and ``execute`` lets a scaffold work and always ends with a
graded record; every scaffold's command (``scaffolds.entry.main_for``) is built on them.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import socket
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

import prompts
from scaffolds.budget import Budget, LimitReached, default_wall_limit
from scaffolds.config import RunConfig
from scaffolds.integrity import Integrity, Validator
from scaffolds.messages import ModelError, ModelExhausted, Usage
from scaffolds.model import LiteLLMModel, make_model
from scaffolds.protocols import (
    GivesProgressNotes,
    HasPrivateFiles,
    KeepsFinalFiles,
    LimitsSubmissionSize,
    Model,
    TakesSnapshots,
    Task,
)
from scaffolds.record import RunRecord, now_iso, write_json_atomic
from scaffolds.session import ModelSession

C = TypeVar("C", bound=RunConfig)


class RunSetupError(Exception):
    """Bad input found before the run starts (unknown task, unreadable resume folder, ...)."""


def slug(text: str) -> str:
    """A safe file-name fragment for any model string or task reference."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.") or "x"


def placement(run_dir: Path) -> dict[str, Any]:
    """Where this process runs: its node (the grid's name for it, ``SCAFFOLDS_NODE``, else the
    host name), the GPUs it may use (``CUDA_VISIBLE_DEVICES``; None when unrestricted) and the
    run folder it works in (on a Ray worker, the worker's copy). A resumed run's record holds
    the latest; each ``start`` event, every one (the monitors protect each of them)."""
    return {
        "node": os.environ.get("SCAFFOLDS_NODE") or socket.gethostname(),
        "node_id": os.environ.get("SCAFFOLDS_NODE_ID"),
        "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES"),
        "run_dir": str(run_dir.absolute()),
    }


def default_run_dir(scaffold: str, task: str) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path("runs") / f"{scaffold}-{slug(task)}-{stamp}"


def task_options(config: RunConfig) -> dict[str, Any]:
    """The run's options for its task's adapter (those set; ``bench_adapters.options``): an
    option left unset that names a ``run_default`` takes that run setting (a reproduction
    gets the run's own time limit)."""
    from bench_adapters.options import FIELDS, extra, is_set

    options = {}
    for name in FIELDS:
        value = getattr(config, name)
        default = extra(name).get("run_default")
        if not is_set(name, value) and default:
            value = getattr(config, default)
        if is_set(name, value):
            options[name] = value
    return options


def resolve(config: RunConfig) -> Task:
    from bench_adapters import TaskNotPrepared, UnknownTask, resolve_task

    try:
        return resolve_task(config.task, **task_options(config))
    except (UnknownTask, TaskNotPrepared) as exc:
        raise RunSetupError(str(exc).splitlines()[0]) from exc


@dataclass
class Run:
    """Everything one scaffold run works with. Built by ``open_run``; closed by ``finish``."""

    config: RunConfig
    scaffold: str
    dir: Path
    task: Task
    record: RunRecord
    budget: Budget
    session: ModelSession
    rng: random.Random
    workspace: Any
    sandbox: Any
    kernel: Any
    hardware: str
    resumed: bool
    integrity: Integrity = field(default_factory=Integrity)

    @property
    def submission_path(self) -> Path:
        return self.workspace.root / self.task.submission_relpath

    def toolset(self, include_answer: bool) -> Any:
        from tools import Toolset

        return Toolset.standard(
            self.workspace,
            self.sandbox,
            self.kernel,
            validate=self.validator("agent"),
            submission_relpath=self.task.submission_relpath,
            time_left=self.budget.time_left,
            include_answer=include_answer,
            tool_timeout_s=self.config.tool_timeout,
            output_cap=self.config.output_cap,
            submission_is_folder=self.task.submission_is_folder,
            max_submission_bytes=(
                self.task.max_submission_bytes()
                if isinstance(self.task, LimitsSubmissionSize)
                else None
            ),
        )

    def validator(self, who: str = "harness") -> Validator:
        """The task's format check, each call counted in the record as ``who``'s: ``agent``
        (its ``validate_submission`` and ``answer`` calls) or ``harness`` (a scaffold's own)."""
        return self.integrity.counted(self.task.validate, who)

    def instructions(self) -> str:
        return self.task.instructions(
            hardware=self.hardware, time_limit_s=self.config.time_limit, max_steps=self.config.steps
        )

    def reminder(self) -> str:
        """The budget line every observation ends with, then the task's own progress note when
        it has one for this step (PaperBench: time elapsed and a nudge to commit)."""
        budget, task = self.budget, self.task
        text = None
        if isinstance(task, GivesProgressNotes):
            text = task.progress_note(budget.steps, budget.elapsed(), budget.time_limit_s)
        return f"{budget.reminder()}\n{text}" if text else budget.reminder()

    def snapshot(self, final: bool = False) -> Path | None:
        """Let the task keep a copy of the submission in the record (``task.snapshot(run,
        final)``, PaperBench's git bundle); returns what to grade, or None to grade the copied
        submission. Its time is not charged to the agent; a failure is recorded, never raised."""
        if not isinstance(self.task, TakesSnapshots):
            return None
        started = time.monotonic()
        try:
            path: Path | None = self.task.snapshot(self, final=final)
            return path
        except Exception as exc:
            self.record.event("error", source="snapshot", error=f"{type(exc).__name__}: {exc}")
            return None
        finally:
            self.budget.exclude(time.monotonic() - started)

    def checkpoint(self, **fields: Any) -> None:
        """Save progress counters in run.json (steps, usage, agent time) so a resume can continue."""
        self.snapshot()
        self.record.update(**self._counters(), **fields)

    def _clocks(self) -> dict[str, float]:
        return {
            "agent_time_s": round(self.budget.elapsed(), 3),
            "wall_time_s": round(self.budget.wall_elapsed(), 3),
        }

    def _counters(self) -> dict[str, Any]:
        return {
            "steps": self.budget.steps,
            **self._clocks(),
            "usage": self.session.usage.to_dict(),
            "model_calls": self.session.calls,
            "integrity": self.integrity.to_dict(self.record.summary),
        }

    def finish(self, status: str, error: str | None = None) -> dict[str, Any]:
        """End the run in the order that keeps the record honest: take the task's final
        snapshot (made as the agent, in its sandbox), end every agent process and close the
        sandbox, then keep ``submission/`` and ``code/`` by descriptor (``tools/keep.py``),
        grade, and write the final run.json. A fault while ending, keeping or grading ends
        the run ``harness_error`` with the reason, as does an integrity violation during the
        run (``scaffolds.integrity``); the record is always final. The run's clocks
        (``agent_time_s``, ``wall_time_s``) stop here, when the agent's part ends and the
        harness's begins: run.json's ``agent_ended_at`` (the grid's wall-limit backstop,
        ``scaffolds.grid.walls``, leaves the harness's part alone)."""
        clocks = self._clocks()
        self.record.update(**clocks, agent_ended_at=now_iso())
        snapshot = self.snapshot(final=True)
        try:
            self.end_agent()
            kept = self.keep()
            if isinstance(self.task, KeepsFinalFiles):
                self.task.keep_final(self)
            graded = snapshot or kept
            grade = (
                ungraded(self.config, graded, self.dir)
                if self.config.grade_later
                else self._grade(graded)
            )
        except Exception as exc:
            self.record.event("error", source="finish", traceback=traceback.format_exc())
            error = (
                f"the end of the run failed ({type(exc).__name__}: {exc}); it had ended as {status}"
            )
            status = "harness_error"
            grade = {"error": error, "valid_submission": False}
        violation = self.integrity.violation()
        if violation is not None:  # a run that tried to score itself is credited nothing
            status, error = "harness_error", violation
            grade = {"error": violation, "valid_submission": False}
        write_json_atomic(self.dir / "grade.json", grade)
        self.record.update(
            **{**self._counters(), **clocks},
            provider_models=self.provider_models(),
            prompts=prompts.loaded(),
        )
        self.record.event("end", status=status, error=error)
        self.record.finish(status, error=error, grade=grade)
        return grade

    def end_agent(self) -> dict[str, Any]:
        """End the kernel and then the sandbox with every process the agent started, and
        record how (``sandbox_closed``): nothing of the agent's is taken before this."""
        if self.kernel is not None:
            self.kernel.shutdown()
        self.sandbox.close()
        ended = self.sandbox.ended
        how = ended.to_dict() if ended is not None else {"how": "not isolated", "clean": None}
        self.record.event("sandbox_closed", **how)
        self.record.update(agent_processes=how)
        if ended is not None and not ended.clean:
            raise RuntimeError(
                f"agent processes survived the end of the sandbox: {ended.survivors}"
            )
        self.integrity.sandbox_closed()
        return how

    def provider_models(self) -> list[str]:
        """The model names the provider's responses reported, over the whole run."""
        names = (e.get("provider_model") for e in self.record.events() if e["kind"] == "model_call")
        return sorted({n for n in names if isinstance(n, str)})

    def keep(self) -> Path:
        """Copy ``submission/`` and ``code/`` beside the record (``tools/keep.py``: by
        descriptor, regular files and folders only, bounded, modes normalised); return the
        kept submission."""
        from tools.keep import CODE_LIMITS, SUBMISSION_LIMITS, keep_tree

        uid = self.sandbox.uid if self.sandbox.isolated else None
        reports = {
            name: keep_tree(
                self.workspace.root, name, self.dir / name, limits, agent_uid=uid
            ).to_dict()
            for name, limits in (("submission", SUBMISSION_LIMITS), ("code", CODE_LIMITS))
        }
        self.record.event("kept", **reports)
        self.record.update(kept={k: {f: r[f] for f in ("files", "bytes", "skipped_count")}
                                 for k, r in reports.items()})  # fmt: skip
        return self.dir / self.task.submission_relpath

    def _grade(self, path: Path) -> dict[str, Any]:
        grade: dict[str, Any] = self.task.grade(path)
        return grade

    def close(self) -> None:
        """Release everything (idempotent: ``finish`` has usually ended the agent already)."""
        if self.kernel is not None:
            self.kernel.shutdown()
        self.sandbox.close()  # ends every process the agent left behind
        if self.sandbox.isolated:
            os.chmod(self.dir, 0o700)  # later runs' agents cannot reach this one's files


def ungraded(config: RunConfig, submission: Path, run_dir: Path | None = None) -> dict[str, Any]:
    """The grade of a run that ended with ``--grade-later``: the command that grades it with
    the run's own task options (data folder, judge model, Code-Dev...) and, given the run's
    folder, writes the grade and the time grading began into its record."""
    from bench_adapters.options import grade_command

    command = grade_command(config.task, submission, task_options(config), run_dir)
    return {"graded": False, "reason": "ended with --grade-later", "grade_command": command}


def sees_gpu(task: str) -> bool:
    """Whether the run's sandbox gets the GPU device nodes: the GPUs a grid assigned it
    (``CUDA_VISIBLE_DEVICES``, empty for a run that needs none); else whether its task needs
    one, as its benchmark's adapter says; else (a benchmark that does not say) the machine's."""
    from bench_adapters.registry import needs_gpu

    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        return bool(visible.strip())
    needed = needs_gpu(task)
    return True if needed is None else needed


def discard_unstarted(run_dir: Path, created: bool) -> None:
    """Remove what a fresh run's failed set-up made: its workspace and empty trajectory, and
    the run folder itself when this call created it."""
    shutil.rmtree(run_dir / "workspace", ignore_errors=True)
    trajectory = run_dir / "trajectory.jsonl"
    if trajectory.is_file() and trajectory.stat().st_size == 0:
        trajectory.unlink()
    if created:
        with contextlib.suppress(OSError):
            run_dir.rmdir()  # only if empty


def guard_private(config: RunConfig, task: Task, sandbox: Any, run_dir: Path) -> list[Any]:
    """Refuse to start (RunSetupError, one line naming the path and the fix) when the agent user
    can read the task's private files or another run's folder, unless
    ``--allow-exposed-answers``; returns what is exposed, for run.json."""
    from tools.exposure import check_exposure, exposure_record, sibling_runs

    private = task.private_paths() if isinstance(task, HasPrivateFiles) else []
    exposed = check_exposure(sandbox, private, sibling_runs(run_dir))
    if exposed and not config.allow_exposed_answers:
        raise RunSetupError(exposed[0].message(sandbox.user))
    return exposure_record(exposed)


def open_run(
    config: RunConfig,
    scaffold: str,
    model: Model | None = None,
    start_kernel: bool = True,
    check_task: Callable[[Task], None] | None = None,
) -> Run:
    """Create a new run folder, or reopen ``config.resume``; ``model`` overrides ``config.model``.
    ``check_task`` may refuse the task (``RunSetupError``) before anything is created."""
    from tools import PythonKernel, Sandbox, Workspace, gpu_names, machine_facts
    from tools.hardware import describe_gpus

    resumed = config.resume is not None
    if resumed:
        run_dir = Path(config.resume)  # type: ignore[arg-type]
        saved = run_dir / "run.json"
        if not saved.is_file():
            raise RunSetupError(f"cannot resume: {saved} does not exist")
        summary = json.loads(saved.read_text(encoding="utf-8"))
        overrides = config.model_dump(exclude_unset=True, exclude={"resume", "task", "model"})
        config = type(config)(**{**summary["config"], **overrides, "resume": run_dir})
    else:
        run_dir = config.out or default_run_dir(scaffold, config.task)
        if (run_dir / "run.json").exists():
            raise RunSetupError(
                f"{run_dir} already holds a run; use --resume {run_dir} to continue it"
            )
    task = resolve(config)
    if check_task is not None:
        check_task(task)
    if model is None:
        model = make_model(
            config.model_settings(), record=config.record, rng=random.Random(config.seed + 1)
        )
    run_dir = run_dir.absolute()
    created = not run_dir.exists()
    run_dir.mkdir(parents=True, exist_ok=True)
    os.chmod(run_dir, 0o711)  # the agent may pass through to its workspace, but not list the record
    ws_root = run_dir / "workspace"
    sandbox = kernel = None
    try:
        record = RunRecord(run_dir)
        workspace = (
            Workspace.open(ws_root)
            if resumed and ws_root.exists()
            else Workspace.create(ws_root, task.public_dir)
        )
        gpu = sees_gpu(config.task)
        sandbox = Sandbox.create(
            workspace,
            agent_user=config.agent_user,
            backend=config.sandbox,
            network=config.agent_network,
            gpu=gpu,
        )
        exposed = guard_private(config, task, sandbox, run_dir)
        if start_kernel:
            kernel = PythonKernel(sandbox, cwd=workspace.root, output_cap=config.output_cap)
            kernel.start()
    except BaseException:
        if sandbox is not None:
            sandbox.close()
        if not resumed:  # a refused or failed set-up leaves nothing that blocks a rerun
            discard_unstarted(run_dir, created)
        raise
    window = config.context_window
    if isinstance(model, LiteLLMModel):
        model.warm_up()
        window = window or model.context_window()
    # the agent's clock starts once its workspace, kernel and model client are ready
    wall = config.wall_limit or default_wall_limit(config.time_limit)
    budget = Budget(config.time_limit, config.steps, config.cost_limit, wall_limit_s=wall)
    if resumed:
        budget.charge_elapsed(
            float(record.summary.get("agent_time_s") or 0.0),
            float(record.summary.get("wall_time_s") or 0.0),
        )
        budget.steps = int(record.summary.get("steps") or 0)
    rng = random.Random(config.seed)
    session = ModelSession(
        model, record, budget, window=window, reserve=config.max_output_tokens or 4096
    )
    if resumed:
        session.usage = Usage.from_dict(record.summary.get("usage"))
        session.calls = int(record.summary.get("model_calls") or 0)

    gpus = gpu_names() if gpu else []
    integrity = Integrity.from_record(record.summary.get("integrity"))
    integrity.guard(task)
    record.start(
        scaffold=scaffold,
        task=config.task,
        benchmark=task.benchmark,
        model=model.name,
        seed=config.seed,
        config=config.model_dump(mode="json"),
        isolation=sandbox.note,
        sandbox=sandbox.describe(),
        answers_exposed=exposed,
        placement=placement(run_dir),
        machine=machine_facts(gpus),
        limits={
            "time_limit_s": config.time_limit,
            "wall_limit_s": wall,
            "cost_limit_usd": config.cost_limit,
            "steps": config.steps,
        },
        agent_ended_at=None,  # a resumed run's agent works again
    )
    record.event("start", resumed=resumed, scaffold=scaffold, task=config.task, model=model.name,
                 placement=record.summary["placement"])  # fmt: skip
    return Run(config, scaffold, run_dir, task, record, budget, session, rng, workspace, sandbox, kernel,
               describe_gpus(gpus), resumed, integrity)  # fmt: skip


class Scaffold(Protocol):
    def __call__(self, run: Run) -> str:
        """Work until done; return the final status (e.g. ``submitted``)."""
        ...


def execute(run: Run, scaffold: Scaffold) -> tuple[str, dict[str, Any]]:
    """Run a scaffold and always finish the record, whatever ends it."""
    error = None
    try:
        status = scaffold(run)
    except ModelExhausted as exc:
        status, error = "model_exhausted", str(exc)
    except LimitReached as exc:
        status, error = exc.status, str(exc)
    except ModelError as exc:
        status, error = "model_error", str(exc)
    except KeyboardInterrupt:
        status, error = "interrupted", "interrupted by the user"
    except Exception as exc:
        status, error = "harness_error", f"{type(exc).__name__}: {exc}"
        run.record.event("error", source="harness", traceback=traceback.format_exc())
    try:
        grade = run.finish(status, error)
    finally:
        run.close()
    return str(run.record.summary["status"]), grade  # finish may have changed it
