"""``--backend ray``: each run is one Ray task with a resource request (CPUs, a GPU when its task
needs one), on a local Ray instance or an existing cluster (``--ray-address``).

The task runs the same scaffold process as the local backend, in a temporary folder on its
worker, starting from the driver's copy of the run folder; the finished folder comes back as
bytes and is unpacked into ``GRID_DIR/runs/<name>`` on the driver.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from scaffolds.grid.command import launched, scaffold_argv
from scaffolds.grid.config import GridConfig
from scaffolds.grid.job import Ended, Job, ensure_workspace_data
from scaffolds.grid.local import open_log
from scaffolds.grid.plan import RunSpec, needs_gpu
from scaffolds.grid.runstate import Attempt, note_start, now_iso, read_run_json
from scaffolds.grid.transfer import pack, unpack
from scaffolds.grid.users import isolation_on, lease_free, lease_waiting
from scaffolds.record import SECRET_SUFFIXES

FORWARDED_ENV = re.compile(r"^(SCAFFOLDS_|MLEBENCH_)|(_API_BASE|_BASE_URL)$")
"""Environment variables the driver passes to Ray workers (data locations, server URLs).
Secrets never travel through Ray: set API keys on the cluster's nodes."""


class RaySetupError(Exception):
    """Ray is missing, unreachable, or cannot place some run (e.g. no GPU for a GPU task)."""


def run_on_worker(
    config: GridConfig, spec_dict: dict[str, Any], payload: bytes, resume: bool, cwd: str
) -> dict[str, Any]:
    """The body of a Ray task: run one scaffold process and return its folder as bytes."""
    spec = RunSpec.from_dict(spec_dict)
    tmp = Path(tempfile.mkdtemp(prefix="scaffolds-grid-"))
    os.chmod(tmp, 0o711)  # the agent user must pass through to the workspace
    run_dir = tmp / spec.name
    lease = None
    try:
        unpack(payload, run_dir)
        if resume:
            ensure_workspace_data(run_dir, spec.task, config.data_dir)
        if isolation_on():  # a resumed run needs the agent user that owns its files
            saved = ((read_run_json(run_dir) or {}).get("config") or {}).get("agent_user")
            lease = lease_waiting(saved) if resume and saved else lease_free()
        user = lease.name if lease is not None and not resume else None
        argv = scaffold_argv(config, spec, run_dir, resume, user, python=sys.executable)
        started_at, started = now_iso(), time.monotonic()
        with open_log(run_dir, argv) as log:
            code = subprocess.call(
                launched(argv, os.getpid(), run_dir),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=cwd if os.path.isdir(cwd) else tmp,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
                start_new_session=True,
            )
        attempt = Attempt(
            started_at, now_iso(), round(time.monotonic() - started, 3), code, resume, argv
        )
        return {"attempt": asdict(attempt), "folder": pack(run_dir)}
    finally:
        if lease is not None:
            lease.release()
        shutil.rmtree(tmp, ignore_errors=True)


class RayBackend:
    """Submits one Ray task per run and unpacks each result on the driver as it arrives."""

    def __init__(self, config: GridConfig, specs: list[RunSpec]):
        try:
            import ray
        except ImportError:
            raise RaySetupError(
                "--backend ray needs Ray: pip install 'mlagent-scaffolds[ray]'"
            ) from None
        self.ray = ray
        self.config = config
        env = {
            k: v
            for k, v in os.environ.items()
            if FORWARDED_ENV.search(k) and not k.upper().endswith(SECRET_SUFFIXES)
        }
        options: dict[str, Any] = {
            "runtime_env": {"env_vars": env},
            "log_to_driver": False,
            "include_dashboard": False,
        }
        if config.ray_address:
            options["address"] = config.ray_address
        elif config.ray_cpus:
            options["num_cpus"] = config.ray_cpus
        options["logging_level"] = logging.WARNING
        try:
            ray.init(**options)
        except Exception as exc:
            raise RaySetupError(f"cannot start or reach Ray: {exc}".splitlines()[0]) from None
        gpu_tasks = sorted({s.task for s in specs if needs_gpu(s.task)})
        if gpu_tasks and config.gpus_per_run > 0 and not ray.cluster_resources().get("GPU"):
            ray.shutdown()
            raise RaySetupError(
                f"{len(gpu_tasks)} task(s) need a GPU (e.g. {gpu_tasks[0]}) but the Ray cluster "
                "has none; use --gpus-per-run 0 to run them on CPUs"
            )
        self.remote = ray.remote(run_on_worker)
        self.pending: dict[Any, Job] = {}

    def start(self, job: Job) -> bool:
        gpus = self.config.gpus_per_run if needs_gpu(job.spec.task) else 0
        note_start(job.run_dir, ["ray task", job.spec.scaffold], job.resume)
        ref = self.remote.options(
            num_cpus=self.config.cpus_per_run, num_gpus=gpus, max_retries=0
        ).remote(self.config, job.spec.to_dict(), pack(job.run_dir), job.resume, os.getcwd())
        self.pending[ref] = job
        return True

    def running(self) -> list[Job]:
        return list(self.pending.values())

    def poll(self, wait_s: float) -> list[Ended]:
        if not self.pending:
            time.sleep(wait_s)
            return []
        ready, _ = self.ray.wait(list(self.pending), num_returns=len(self.pending), timeout=wait_s)
        return [self._collect(ref) for ref in ready]

    def _collect(self, ref: Any) -> Ended:
        job = self.pending.pop(ref)
        try:
            result = self.ray.get(ref)
        except Exception as exc:  # the worker died, the task was cancelled, ...
            message = f"the Ray task failed: {type(exc).__name__}: {exc}"
            attempt = Attempt(now_iso(), now_iso(), 0.0, -1, job.resume, [])
            return Ended(job, attempt, message.strip())
        unpack(result["folder"], job.run_dir)
        return Ended(job, Attempt(**result["attempt"]))

    def stop(self) -> list[Ended]:
        """Cancel every task: their runs continue from the driver's copy on the next rerun."""
        for ref in self.pending:
            self.ray.cancel(ref, force=True)
        self.pending.clear()
        return []

    def close(self) -> None:
        self.stop()
        self.ray.shutdown()
