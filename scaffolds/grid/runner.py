"""The grid driver: plan, skip what is done, run the rest on a backend, keep results.

The summary tables are the caller's (``python -m scaffolds.ablate`` passes
``scaffolds.report.write_report``): the runner never imports the report, which reads grids.
"""

from __future__ import annotations

import fcntl
import os
import stat
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from scaffolds.grid.command import LOCK_FILE, busy
from scaffolds.grid.config import GridConfig
from scaffolds.grid.job import Ended, Job, finish, prepare
from scaffolds.grid.placement import PlacementError
from scaffolds.grid.plan import RunSpec, grid_tasks, plan_runs, save_plan
from scaffolds.grid.progress import FAILED, NodeState, Progress
from scaffolds.grid.results import RUNS_DIR, Results, build_row, current_rows
from scaffolds.grid.runstate import add_attempt, read_run_json, times_lost

POLL_S = 0.5


class GridSetupError(Exception):
    """Bad input found before any run starts (unknown task or split, Ray unusable, ...)."""


class Backend(Protocol):
    def start(self, job: Job) -> bool:
        """Start the job; False when it has to wait (e.g. for an agent user)."""
        ...

    def running(self) -> list[Job]: ...

    def poll(self, wait_s: float) -> list[Ended]:
        """Jobs whose process ended, waiting up to ``wait_s`` for the first one."""
        ...

    def stop(self) -> list[Ended]:
        """Stop every running job; those that ended, marked ``stopped``."""
        ...

    def nodes(self) -> list[NodeState]:
        """The machines runs go to, for the progress panel."""
        ...

    def close(self) -> None: ...


def check_tasks(config: GridConfig, tasks: list[str]) -> None:
    """Unknown tasks are bad input; unprepared ones too, unless Ray runs them elsewhere."""
    from bench_adapters import TaskNotPrepared, UnknownTask, resolve_task

    options = {"data_dir": config.data_dir} if config.data_dir else {}
    unprepared = []
    for task in tasks:
        try:
            resolve_task(task, **options)
        except UnknownTask as exc:
            raise GridSetupError(str(exc).splitlines()[0]) from None
        except TaskNotPrepared as exc:
            unprepared.append(str(exc).splitlines()[0])
    if unprepared and not config.ray_address:
        raise GridSetupError(
            f"{len(unprepared)} of {len(tasks)} task(s) not prepared here; first: {unprepared[0]}"
        )


def check_traversable(grid_dir: Path) -> None:
    """When runs isolate the agent (root), it must pass through every parent of GRID_DIR."""
    from scaffolds.grid.users import isolation_on

    if not isolation_on():
        return
    for parent in [grid_dir, *grid_dir.parents]:
        if parent.exists() and not parent.stat().st_mode & stat.S_IXOTH:
            raise GridSetupError(
                f"the agent user cannot pass through {parent} (mode "
                f"{stat.S_IMODE(parent.stat().st_mode):o}); put --out under a directory every "
                "user may traverse (mode 0755 or 0711)"
            )


def make_backend(config: GridConfig, specs: list[RunSpec]) -> Backend:
    if config.backend == "ray":
        from scaffolds.grid.ray_backend import RayBackend, RaySetupError

        try:
            return RayBackend(config, specs)
        except RaySetupError as exc:
            raise GridSetupError(str(exc)) from None
    from scaffolds.grid.local import LocalBackend

    try:
        return LocalBackend(config, specs)
    except PlacementError as exc:
        raise GridSetupError(str(exc)) from None


def run_grid(config: GridConfig, write_report: Callable[[Path], list[Path]] | None = None) -> int:
    """Run (or continue) the grid; 0 when every run finished, 1 when some crashed, 130 on Ctrl-C.
    ``write_report(grid_dir)``, when given, writes the summary at the end (even after Ctrl-C)."""
    grid_dir = config.out.absolute()
    if grid_dir.exists() and not grid_dir.is_dir():
        raise GridSetupError(f"--out {config.out} is a file, not a folder")
    try:
        tasks = grid_tasks(config)
    except ValueError as exc:
        raise GridSetupError(str(exc)) from None
    check_tasks(config, tasks)
    if config.backend == "local":
        check_traversable(grid_dir)
    specs = plan_runs(config, tasks)
    (grid_dir / RUNS_DIR).mkdir(parents=True, exist_ok=True)
    lock = lock_grid(grid_dir)
    try:
        return _run_locked(config, grid_dir, specs, write_report)
    finally:
        os.close(lock)


def lock_grid(grid_dir: Path) -> int:
    """One grid at a time per folder: the lock lives as long as this process."""
    fd = os.open(grid_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise GridSetupError(f"another grid is already running in {grid_dir}") from None
    return fd


def wait_for_leftovers(specs: list[RunSpec], grid_dir: Path, progress: Progress) -> None:
    """Runs of an earlier grid that was killed get SIGINT and record themselves as
    interrupted; wait for them to end before deciding what to resume."""
    told = False
    while busy_runs := [s.name for s in specs if busy(grid_dir / RUNS_DIR / s.name)]:
        if not told:
            progress.print(f"grid: waiting for {len(busy_runs)} run(s) of an earlier grid to stop")
            told = True
        time.sleep(POLL_S)


def _run_locked(
    config: GridConfig,
    grid_dir: Path,
    specs: list[RunSpec],
    write_report: Callable[[Path], list[Path]] | None,
) -> int:
    save_plan(grid_dir, config, specs)
    results = Results(grid_dir)
    names = {s.name for s in specs}
    backend = make_backend(config, specs)
    progress = Progress(len(specs))
    interrupted = False
    try:
        wait_for_leftovers(specs, grid_dir, progress)
        for name, row in current_rows(grid_dir, results).items():
            if name in names:
                progress.tally.add(row)
        jobs = [j for s in specs if (j := prepare(s, grid_dir, config.retry_crashed)) is not None]
        progress.print(
            f"grid: {len(specs)} runs, {len(specs) - len(jobs)} already done, {len(jobs)} to run"
        )
        drive(backend, deque(jobs), config, grid_dir, results, progress)
    except KeyboardInterrupt:
        interrupted = True
        progress.print("grid: interrupted; stopping the runs (rerun the same command to continue)")
        for ended in backend.stop():
            progress.finished(finish(ended, grid_dir, results), [])
    finally:
        backend.close()
        progress.close([])
    if write_report is not None:
        written = write_report(grid_dir)
        if written:
            progress.print("grid: wrote " + ", ".join(str(p) for p in written))
    if interrupted:
        return 130
    rows = current_rows(grid_dir)
    failed = sorted(n for n in names if rows.get(n, {}).get("status") in FAILED)
    if failed:
        shown = ", ".join(f"{n} ({rows[n]['status']})" for n in failed[:10])
        more = f" and {len(failed) - 10} more" if len(failed) > 10 else ""
        progress.print(
            f"grid: {len(failed)} run(s) failed: {shown}{more}; "
            "see runs/<name>/run.json (error) or grid_error.txt"
        )
    return 1 if failed else 0


def drive(
    backend: Backend,
    pending: deque[Job],
    config: GridConfig,
    grid_dir: Path,
    results: Results,
    progress: Progress,
) -> None:
    """Keep ``config.concurrency()`` runs going until none is left; record each as it ends, and
    put a run its node lost back at the front, to continue from its last checkpoint."""
    concurrency = config.concurrency()
    while pending or backend.running():
        waiting: list[Job] = []
        while pending and (concurrency is None or len(backend.running()) < concurrency):
            job = pending.popleft()
            if not backend.start(job):
                waiting.append(job)
        pending.extendleft(reversed(waiting))
        for ended in backend.poll(POLL_S):
            if ended.attempt.lost and times_lost(ended.job.run_dir) < config.retry_lost:
                again = continue_lost(ended, grid_dir, results, progress)
                if again is not None:
                    pending.appendleft(again)
                continue
            progress.finished(finish(ended, grid_dir, results), backend.running())
        progress.refresh(backend.running(), backend.nodes())


def continue_lost(ended: Ended, grid_dir: Path, results: Results, progress: Progress) -> Job | None:
    """The job that continues a lost run from the driver's copy of its folder; None when that
    copy already holds the run's end (only the node's last word was lost): then it is recorded."""
    spec, run_dir = ended.job.spec, ended.job.run_dir
    add_attempt(run_dir, ended.attempt)
    steps = (read_run_json(run_dir) or {}).get("steps") or 0
    job = prepare(spec, grid_dir, retry_crashed=True)
    if job is None:
        row = build_row(spec, run_dir, grid_dir)
        results.append(row)
        progress.finished(row, [])
        return None
    where = f" on {ended.attempt.node}" if ended.attempt.node else ""
    progress.print(
        f"grid: {spec.name} was lost{where} ({ended.error}); it continues from its last "
        f"checkpoint (step {steps})"
    )
    return job
