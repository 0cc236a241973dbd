"""Setting up and closing one run: task, workspace, sandbox, kernel, tools, model, record, grade.

Every scaffold's entry point is ``main_for(Scaffold, ...)``: it parses flags onto the scaffold's
config, opens (or resumes) the run, lets the scaffold work, and always ends with a graded record.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shlex
import shutil
import socket
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

from scaffolds.budget import Budget, LimitReached
from scaffolds.config import RunConfig, build_parser, parse_config
from scaffolds.exit_codes import FAILED_STATUSES, HELP, for_status, sigterm_interrupts
from scaffolds.messages import ModelError, ModelExhausted, Usage
from scaffolds.model import LiteLLMModel, make_model
from scaffolds.protocols import HasPrivateFiles, Model, Task
from scaffolds.record import RunRecord, write_json_atomic
from scaffolds.session import ModelSession

C = TypeVar("C", bound=RunConfig)
GRADING_OPTIONS = frozenset(
    {"data_dir", "mlebench_dir", "judge_model", "judge_api_base", "max_judge_cost", "code_dev",
     "resources_provided", "reproduce_timeout"}
)  # fmt: skip
"""The task options ``python -m bench_adapters grade`` takes (``obfuscate`` changes only what
the agent reads)."""


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
    """The run's options for its task's adapter (those set)."""
    options = {
        "data_dir": config.data_dir,
        "mlebench_dir": config.mlebench_dir,
        "obfuscate": config.obfuscate,
        "judge_model": config.judge_model,
        "judge_api_base": config.judge_api_base,
        "max_judge_cost": config.max_judge_cost,
        "code_dev": config.code_dev,
        "resources_provided": config.resources_provided,
        # a run's reproduction (PaperBench) gets the run's own time limit unless told otherwise
        "reproduce_timeout": config.reproduce_timeout or config.time_limit,
    }
    return {k: v for k, v in options.items() if v}


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

    @property
    def submission_path(self) -> Path:
        return self.workspace.root / self.task.submission_relpath

    def toolset(self, include_answer: bool) -> Any:
        from tools import Toolset

        return Toolset.standard(
            self.workspace,
            self.sandbox,
            self.kernel,
            validate=self.task.validate,
            submission_relpath=self.task.submission_relpath,
            time_left=self.budget.time_left,
            include_answer=include_answer,
            tool_timeout_s=self.config.tool_timeout,
            output_cap=self.config.output_cap,
            submission_is_folder=getattr(self.task, "submission_is_folder", False),
        )

    def instructions(self) -> str:
        return self.task.instructions(
            hardware=self.hardware, time_limit_s=self.config.time_limit, max_steps=self.config.steps
        )

    def reminder(self) -> str:
        """The budget line every observation ends with, then the task's own progress note when
        it has one for this step (PaperBench: time elapsed and a nudge to commit)."""
        budget, note = self.budget, getattr(self.task, "progress_note", None)
        text = note(budget.steps, budget.elapsed(), budget.time_limit_s) if note else None
        return f"{budget.reminder()}\n{text}" if text else budget.reminder()

    def snapshot(self, final: bool = False) -> Path | None:
        """Let the task keep a copy of the submission in the record (``task.snapshot(run,
        final)``, PaperBench's git bundle); returns what to grade, or None to grade the copied
        submission. Its time is not charged to the agent; a failure is recorded, never raised."""
        keep = getattr(self.task, "snapshot", None)
        if keep is None:
            return None
        started = time.monotonic()
        try:
            path: Path | None = keep(self, final=final)
            return path
        except Exception as exc:
            self.record.event("error", source="snapshot", error=f"{type(exc).__name__}: {exc}")
            return None
        finally:
            self.budget.exclude(time.monotonic() - started)

    def checkpoint(self, **fields: Any) -> None:
        """Save progress counters in run.json (steps, usage, agent time) so a resume can continue."""
        self.snapshot()
        self.record.update(
            steps=self.budget.steps,
            agent_time_s=round(self.budget.elapsed(), 3),
            usage=self.session.usage.to_dict(),
            model_calls=self.session.calls,
            **fields,
        )

    def finish(self, status: str, error: str | None = None) -> dict[str, Any]:
        """Keep submission/ and code/ beside the record, grade, and write the final run.json."""
        snapshot = self.snapshot(final=True)
        for name in ("submission", "code"):
            src = self.workspace.root / name
            if src.is_dir() and not src.is_symlink():
                # links stay links: the harness (root) never follows a link the agent made
                shutil.copytree(src, self.dir / name, symlinks=True, dirs_exist_ok=True)
        kept = self.dir / self.task.submission_relpath
        if kept.is_symlink():
            kept.unlink()  # it could point at the private answers; only a real file is graded
        graded = snapshot or kept
        if self.config.grade_later:
            grade = ungraded(self.config, graded)
        else:
            try:
                grade = self.task.grade(graded)
            except Exception as exc:  # a grader fault must not lose the run
                grade = {"error": f"{type(exc).__name__}: {exc}", "valid_submission": False}
        write_json_atomic(self.dir / "grade.json", grade)
        self.checkpoint()
        self.record.event("end", status=status, error=error)
        self.record.finish(status, error=error, grade=grade)
        self.write_view()
        return grade

    def write_view(self) -> None:
        """Draw ``view.html`` from the final record; a failure is noted in run.json (the
        trajectory has ended), never raised."""
        try:
            from scaffolds.view import write_run_page

            write_run_page(self.dir)
        except Exception as exc:  # the page is a convenience: it must not fail or lose the run
            self.record.update(view_error=f"{type(exc).__name__}: {exc}")

    def close(self) -> None:
        if self.kernel is not None:
            self.kernel.shutdown()
        self.sandbox.close()  # ends every process the agent left behind
        if self.sandbox.isolated:
            os.chmod(self.dir, 0o700)  # later runs' agents cannot reach this one's files


def ungraded(config: RunConfig, submission: Path) -> dict[str, Any]:
    """The grade of a run that ended with ``--grade-later``: the command that grades it with
    the run's own task options (data folder, judge model, Code-Dev...)."""
    argv = ["python", "-m", "bench_adapters", "grade", "--task", config.task]
    argv += ["--submission", str(submission)]
    options = task_options(config)
    if not config.task.startswith("paperbench/"):
        options.pop("reproduce_timeout", None)  # always set, since it defaults to the time limit
    for name, value in options.items():
        if name in GRADING_OPTIONS:
            flag = "--" + name.replace("_", "-")
            argv += [flag] if value is True else [flag, str(value)]
    command = " ".join(shlex.quote(part) for part in argv)
    return {"graded": False, "reason": "ended with --grade-later", "grade_command": command}


def sees_gpu(task: str) -> bool:
    """Whether the run's sandbox gets the GPU device nodes: the GPUs a grid assigned it
    (``CUDA_VISIBLE_DEVICES``, empty for a run that needs none); else whether its task needs
    one where its benchmark says (``scaffolds.grid.plan.needs_gpu``: MLE-bench's ``cpu_only``
    split, the demo tasks and the demo paper need none); else (TAM-Bench) the machine's."""
    from scaffolds.grid.plan import needs_gpu

    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        return bool(visible.strip())
    return needs_gpu(task) or task.partition("/")[0] not in ("mlebench", "paperbench", "demo")


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
    from tools import PythonKernel, Sandbox, Workspace, hardware_line

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
    # the agent's clock starts once its workspace and kernel are ready
    budget = Budget(config.time_limit, config.steps, config.cost_limit)
    if resumed:
        budget.charge_elapsed(float(record.summary.get("agent_time_s") or 0.0))
        budget.steps = int(record.summary.get("steps") or 0)
    rng = random.Random(config.seed)
    window = config.context_window
    if window is None and isinstance(model, LiteLLMModel):
        window = model.context_window()
    session = ModelSession(
        model, record, budget, window=window, reserve=config.max_output_tokens or 4096
    )
    if resumed:
        session.usage = Usage.from_dict(record.summary.get("usage"))
        session.calls = int(record.summary.get("model_calls") or 0)

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
    )
    record.event("start", resumed=resumed, scaffold=scaffold, task=config.task, model=model.name,
                 placement=record.summary["placement"])  # fmt: skip
    return Run(config, scaffold, run_dir, task, record, budget, session, rng, workspace, sandbox, kernel,
               hardware_line() if gpu else "a CPU", resumed)  # fmt: skip


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
    return status, grade


def main_for(
    scaffold_name: str,
    config_cls: type[C],
    make_scaffold: Callable[[C], Scaffold],
    description: str,
    example: str,
    argv: list[str] | None = None,
    check_task: Callable[[Task], None] | None = None,
) -> int:
    """The body of ``python -m scaffolds.<name>``: flags -> run -> summary line -> exit code
    (``scaffolds.exit_codes``); ``check_task`` is ``open_run``'s."""
    prog = f"python -m scaffolds.{scaffold_name}"
    parser = build_parser(config_cls, prog, description, f"{example}\n\n{HELP}")
    config = parse_config(config_cls, parser, argv)
    started = time.monotonic()
    try:
        run = open_run(config, scaffold_name, check_task=check_task)
    except (RunSetupError, ModelError, RuntimeError, FileExistsError, FileNotFoundError) as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    with sigterm_interrupts():
        status, grade = execute(run, make_scaffold(run.config))  # type: ignore[arg-type]
    print(summary_line(run, status, grade, time.monotonic() - started))
    if status in FAILED_STATUSES:
        print(f"{prog}: {status}: {run.record.summary.get('error')}", file=sys.stderr)
    return for_status(status)


def summary_line(run: Run, status: str, grade: dict[str, Any], wall_s: float) -> str:
    medal = next((m for m in ("gold", "silver", "bronze") if grade.get(f"{m}_medal")), None)
    return (
        f"{run.scaffold} on {run.config.task}: status={status} steps={run.budget.steps} "
        f"valid={grade.get('valid_submission')} score={grade.get('score')} medal={medal or 'none'} "
        f"reward={grade.get('normalized_reward')} tokens={run.session.usage.prompt_tokens + run.session.usage.completion_tokens} "
        f"cost={run.session.usage.cost_usd} wall={wall_s:.1f}s\nrecord: {run.dir / 'run.json'}"
    )
