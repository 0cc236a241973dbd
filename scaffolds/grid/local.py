"""``--backend local``: each run is a scaffold process on this machine, a few at a time."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from scaffolds.grid.command import busy, launched, scaffold_argv
from scaffolds.grid.config import GridConfig
from scaffolds.grid.job import Ended, Job, ensure_workspace_data
from scaffolds.grid.placement import GpuLease, GpuPool, PlacementError, resources_for, visible_gpus
from scaffolds.grid.plan import RunSpec
from scaffolds.grid.progress import NodeState
from scaffolds.grid.runstate import LOG_FILE, Attempt, note_start, now_iso
from scaffolds.grid.users import UserLease, isolation_on, lease_free, try_lease
from scaffolds.grid.walls import WallWatch

STOP_GRACE_S = 60.0
"""After a Ctrl-C, how long runs get to record themselves as interrupted before being killed."""


@dataclass
class _Process:
    job: Job
    popen: subprocess.Popen[bytes]
    argv: list[str]
    started_at: str
    started: float
    log: IO[bytes]
    lease: UserLease | None
    gpus: GpuLease | None
    wall: WallWatch


def open_log(run_dir: Path, argv: list[str]) -> IO[bytes]:
    """The run's scaffold.log, appended to; like the record, readable by the harness alone
    (another run's agent must find nothing to read in this run's folder)."""
    fd = os.open(run_dir / LOG_FILE, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.fchmod(fd, 0o600)  # a log an older version left readable, too
    log = os.fdopen(fd, "ab")
    log.write(f"\n=== grid attempt {now_iso()}: {' '.join(argv)}\n".encode())
    log.flush()
    return log


class LocalBackend:
    """Starts scaffold processes in their own sessions; the caller limits how many at a time.
    Runs that need GPUs get their own from this machine's (``CUDA_VISIBLE_DEVICES`` or
    ``nvidia-smi``) and wait while none is free."""

    def __init__(self, config: GridConfig, specs: list[RunSpec] | None = None):
        self.config = config
        self.gpus = GpuPool(visible_gpus())
        self.processes: dict[str, _Process] = {}
        self.failed: list[Ended] = []
        """Jobs that could not even be launched, reported by the next ``poll``."""
        self.done = 0
        for spec in specs or []:
            wanted = resources_for(spec.task, config).gpus
            if wanted > len(self.gpus):
                raise PlacementError(
                    f"{spec.task} needs {wanted:g} GPU(s) but this machine has {len(self.gpus)}; "
                    "use --gpus-per-run 0 to run it on CPUs, or --backend ray for GPU nodes"
                )

    def start(self, job: Job) -> bool:
        """Start ``job``; False when it must wait (for GPUs, for the agent user it needs, or
        for an earlier grid's process still finishing it)."""
        if busy(job.run_dir):
            return False
        wanted = resources_for(job.spec.task, self.config).gpus
        gpus = self.gpus.take(wanted) if wanted else None
        if wanted and gpus is None:
            return False
        lease = None
        if isolation_on():
            saved = job.saved_user
            lease = try_lease(saved) if saved else lease_free()
            if lease is None:
                if gpus is not None:
                    self.gpus.give(gpus)
                return False
        started_at, started = now_iso(), time.monotonic()
        try:
            self._launch(job, lease, gpus, started_at, started)
        except Exception as exc:  # e.g. its task data vanished: this run fails, not the grid
            if lease is not None:
                lease.release()
            if gpus is not None:
                self.gpus.give(gpus)
            attempt = Attempt(started_at, now_iso(), 0.0, -1, job.resume, [])
            self.failed.append(Ended(job, attempt, f"could not start: {type(exc).__name__}: {exc}"))
        return True

    def _launch(
        self,
        job: Job,
        lease: UserLease | None,
        gpus: GpuLease | None,
        started_at: str,
        started: float,
    ) -> None:
        if job.resume:
            ensure_workspace_data(job.run_dir, job.spec.task, self.config.data_dir)
        user = lease.name if lease is not None and not job.resume else None
        argv = scaffold_argv(self.config, job.spec, job.run_dir, job.resume, user)
        note_start(job.run_dir, argv, job.resume)
        log = open_log(job.run_dir, argv)
        try:
            popen = subprocess.Popen(
                launched(argv, os.getpid(), job.run_dir),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env={
                    **os.environ,
                    "PYTHONUNBUFFERED": "1",
                    "CUDA_VISIBLE_DEVICES": ",".join(gpus.devices) if gpus else "",
                },
                start_new_session=True,
            )
        except BaseException:
            log.close()
            raise
        self.processes[job.spec.name] = _Process(
            job, popen, argv, started_at, started, log, lease, gpus, WallWatch(job.run_dir, started)
        )

    def running(self) -> list[Job]:
        """Started jobs not yet reported by ``poll``."""
        return [p.job for p in self.processes.values()] + [e.job for e in self.failed]

    def poll(self, wait_s: float) -> list[Ended]:
        """Jobs whose process ended, waiting up to ``wait_s`` for the first one."""
        deadline = time.monotonic() + wait_s
        while True:
            for p in self.processes.values():  # the backstop for a run past its wall limit
                if p.wall.check(p.popen.pid, p.lease.name if p.lease else None):
                    p.popen.wait()
                    p.wall.settle()
            ended = [p for p in self.processes.values() if p.popen.poll() is not None]
            if ended or self.failed or time.monotonic() >= deadline:
                failed, self.failed = self.failed, []
                return failed + [self._ended(p) for p in ended]
            time.sleep(min(0.1, max(0.0, deadline - time.monotonic())))

    def _ended(self, p: _Process, stopped: bool = False) -> Ended:
        del self.processes[p.job.spec.name]
        p.log.close()
        if p.lease is not None:
            p.lease.release()
        if p.gpus is not None:
            self.gpus.give(p.gpus)
        self.done += 1
        code = p.popen.returncode
        attempt = Attempt(
            started_at=p.started_at,
            ended_at=now_iso(),
            wall_s=round(time.monotonic() - p.started, 3),
            exit_code=code,
            resumed=p.job.resume,
            command=p.argv,
        )
        error = f"the scaffold was killed by signal {-code}" if code < 0 else None
        if p.wall.ended:
            error = None  # run.json says wall_limit, ended by the grid
        return Ended(p.job, attempt, error, stopped)

    def nodes(self) -> list[NodeState]:
        """This machine, as the only node."""
        name = socket.gethostname()
        return [NodeState(name, True, len(self.processes), self.done, float(len(self.gpus)))]

    def stop(self) -> list[Ended]:
        """Interrupt every run (each records itself as interrupted), kill the stragglers."""
        for p in self.processes.values():
            _signal(p.popen.pid, signal.SIGINT, group=False)
        ended = []
        deadline = time.monotonic() + STOP_GRACE_S
        try:
            while self.processes and time.monotonic() < deadline:
                time.sleep(0.1)
                done = [p for p in self.processes.values() if p.popen.poll() is not None]
                ended += [self._ended(p, stopped=True) for p in done]
        except KeyboardInterrupt:
            pass  # a second Ctrl-C: stop waiting
        for p in self.processes.values():
            _signal(p.popen.pid, signal.SIGKILL, group=True)
        for p in list(self.processes.values()):
            p.popen.wait()
            ended.append(self._ended(p, stopped=True))
        return ended

    def close(self) -> None:
        if self.processes:
            self.stop()


def _signal(pid: int, sig: signal.Signals, group: bool) -> None:
    try:
        if group:
            os.killpg(pid, sig)
        else:
            os.kill(pid, sig)
    except ProcessLookupError:
        pass
