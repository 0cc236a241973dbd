"""``--backend ray``: each run is one Ray task placed by its needs (CPUs, GPUs, memory, a node
label: :mod:`scaffolds.grid.placement`), on a local Ray instance or a cluster (``--ray-address``).

The nodes of a cluster need share no file system with the driver. The package travels with the
job (Ray ``py_modules``); task data and replay cassettes go to the nodes that lack them
(:mod:`scaffolds.grid.remote`); each run's folder streams back into ``GRID_DIR/runs/<name>`` at
every checkpoint (:mod:`scaffolds.grid.mirror`), and that copy stays the single source of truth.
A run whose node or worker dies ends as *lost*; the grid continues it from that copy, elsewhere.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import re
import shlex
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scaffolds.grid.config import GridConfig
from scaffolds.grid.job import Ended, Job
from scaffolds.grid.mirror import MirrorError, apply_delta
from scaffolds.grid.placement import Resources, resources_for
from scaffolds.grid.plan import RunSpec
from scaffolds.grid.progress import NodeState
from scaffolds.grid.remote import Input, sha256, shipped
from scaffolds.grid.runstate import Attempt, note_start, now_iso
from scaffolds.grid.transfer import pack
from scaffolds.record import SECRET_SUFFIXES

FORWARDED_ENV = re.compile(r"^(SCAFFOLDS_|MLEBENCH_)|(_API_BASE|_BASE_URL)$")
"""Environment variables the driver passes to Ray workers (data locations, server URLs).
Secrets never travel through Ray: set API keys on the cluster's nodes."""

PACKAGES = (
    "scaffolds",
    "aide_tree",
    "basic_agent",
    "iterative_agent",
    "tools",
    "prompts",
    "baselines",
    "bench_adapters",
)
"""The packages of mlagent-scaffolds, sent to a cluster's nodes with the job."""

NODES_S = 2.0
"""How often the node table is asked for (progress only)."""


class RaySetupError(Exception):
    """Ray is missing, unreachable, or no node can place some run (e.g. no GPU for a GPU task)."""


def fits(needs: Resources, node: dict[str, Any]) -> bool:
    """Could this node (an entry of ``ray.nodes()``) ever run a run with these needs?"""
    have = node.get("Resources") or {}
    return (
        have.get("CPU", 0) >= needs.cpus
        and have.get("GPU", 0) >= needs.gpus
        and (not needs.memory_gb or have.get("memory", 0) >= needs.memory_gb * 2**30)
        and (not needs.label or (node.get("Labels") or {}).get(needs.label[0]) == needs.label[1])
    )


@dataclass
class _Task:
    job: Job
    stream: Any
    """The Ray task's ``ObjectRefGenerator``."""
    started_at: str
    started: float
    node: str | None = None
    node_id: str | None = None


class RayBackend:
    """Submits one Ray task per run and applies what each streams back as it arrives."""

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
        runtime_env: dict[str, Any] = {"env_vars": env}
        options: dict[str, Any] = {"log_to_driver": False, "include_dashboard": False}
        if config.ray_address:
            options["address"] = config.ray_address
            runtime_env["py_modules"] = [
                str(Path(importlib.import_module(p).__file__ or "").parent) for p in PACKAGES
            ]
        elif config.ray_cpus:
            options["num_cpus"] = config.ray_cpus
        try:
            ray.init(runtime_env=runtime_env, logging_level=logging.WARNING, **options)
        except Exception as exc:
            raise RaySetupError(f"cannot start or reach Ray: {exc}".splitlines()[0]) from None
        try:
            self.check(specs)
        except RaySetupError:
            ray.shutdown()
            raise
        from scaffolds.grid.remote import run_on_worker

        self.remote = ray.remote(run_on_worker)
        self.tasks: dict[str, _Task] = {}
        self.sent: dict[str, Any] = {}
        """Input path -> ObjectRef of the driver's copy, once some node lacked it."""
        self.digests: dict[str, str] = {}
        self.data: dict[str, str | None] = {}
        self.done_on: Counter[str] = Counter()
        self.node_table: list[dict[str, Any]] = []
        self.node_table_at = -NODES_S

    def check(self, specs: list[RunSpec]) -> None:
        """Bad input now rather than a run that waits forever: every run must fit some node."""
        alive = [n for n in self.ray.nodes() if n.get("Alive")]
        needs: dict[Resources, str] = {}
        for spec in specs:
            needs.setdefault(resources_for(spec.task, self.config), spec.task)
        for res, task in needs.items():
            if not any(fits(res, node) for node in alive):
                hint = "; use --gpus-per-run 0 to run them on CPUs" if res.gpus else ""
                raise RaySetupError(
                    f"no node of the Ray cluster can run {task} (it needs {res.describe()}){hint}"
                )

    # inputs a node may lack

    def task_data(self, task: str) -> str | None:
        """The task's folder on the driver (the one holding ``prepared/``), if it has one; a
        task without one must be present on every node."""
        if task not in self.data:
            from bench_adapters import TaskNotPrepared, UnknownTask, resolve_task
            from scaffolds.protocols import HasPreparedData

            options = {"data_dir": self.config.data_dir} if self.config.data_dir else {}
            try:
                resolved = resolve_task(task, **options)
            except (TaskNotPrepared, UnknownTask):
                resolved = None
            prepared = resolved.prepared_dir if isinstance(resolved, HasPreparedData) else None
            if prepared is not None and prepared.is_dir():
                self.data[task] = str(prepared.parent)
            else:
                self.data[task] = None
        return self.data[task]

    def inputs(self, spec: RunSpec) -> list[Input]:
        """What the run reads from the driver's disk: its task's data and replay cassettes."""
        paths: dict[str, str | None] = {}
        data = self.task_data(spec.task)
        if data is not None:
            paths[data] = None
        for token in [spec.model_string(), *shlex.split(self.config.scaffold_args or "")]:
            _, replay, rest = token.partition("replay:")
            path = Path(rest).absolute()
            if replay and rest and path.is_file():
                if str(path) not in self.digests:
                    self.digests[str(path)] = sha256(path)
                paths[str(path)] = self.digests[str(path)]
        return [Input(p, d, [self.sent[p]] if p in self.sent else []) for p, d in paths.items()]

    def send(self, paths: list[str]) -> None:
        for path in paths:
            if path not in self.sent:
                self.sent[path] = self.ray.put(shipped(Path(path)))

    # the Backend protocol

    def start(self, job: Job) -> bool:
        note_start(job.run_dir, ["ray task", job.spec.scaffold], job.resume)
        self.submit(job)
        return True

    def submit(self, job: Job) -> None:
        needs = resources_for(job.spec.task, self.config)
        options: dict[str, Any] = {"num_cpus": needs.cpus, "num_gpus": needs.gpus, "max_retries": 0}
        if needs.memory_gb:
            options["memory"] = int(needs.memory_gb * 2**30)
        if needs.label:
            options["label_selector"] = {needs.label[0]: needs.label[1]}
        stream = self.remote.options(**options).remote(
            self.config,
            job.spec.to_dict(),
            pack(job.run_dir),
            job.resume,
            self.inputs(job.spec),
            os.getcwd(),
        )
        self.tasks[job.spec.name] = _Task(job, stream, now_iso(), time.monotonic())

    def running(self) -> list[Job]:
        return [t.job for t in self.tasks.values()]

    def poll(self, wait_s: float) -> list[Ended]:
        """Apply what the runs streamed; return those that ended (or were lost)."""
        if not self.tasks:
            time.sleep(wait_s)
            return []
        self.ray.wait([t.stream for t in self.tasks.values()], num_returns=1, timeout=wait_s)
        ended = [self.read(task) for task in list(self.tasks.values())]
        return [e for e in ended if e is not None]

    def read(self, task: _Task) -> Ended | None:
        """Everything ``task`` has yielded so far; its end, if it came."""
        errors = self.ray.exceptions
        while task.stream.next_ready():
            try:
                message = self.ray.get(next(task.stream))
            except errors.RayTaskError as exc:  # our code raised on the worker
                return self.failed(task, f"the Ray task failed: {exc.cause!r}", lost=False)
            except errors.RayError as exc:  # the node or worker died, an object was lost
                error = str(exc).strip().splitlines()[0] if str(exc).strip() else repr(exc)
                return self.failed(task, f"lost: {type(exc).__name__}: {error}", lost=True)
            if "placed" in message:
                task.node, task.node_id = message["placed"]["node"], message["placed"]["node_id"]
            elif "delta" in message:
                try:
                    apply_delta(task.job.run_dir, message["delta"])
                except (MirrorError, OSError) as exc:
                    self.ray.cancel(task.stream, force=True)
                    return self.failed(task, f"cannot copy the run back: {exc}", lost=False)
            elif "missing" in message:
                self.send(message["missing"])
                self.submit(task.job)  # the same attempt, now with the inputs
                return None
            elif "end" in message:
                del self.tasks[task.job.spec.name]
                self.done_on[task.node_id or ""] += 1
                return Ended(task.job, Attempt(**message["end"]))
        if task.stream.is_finished():
            return self.failed(task, "lost: the Ray task ended without its run's end", lost=True)
        return None

    def failed(self, task: _Task, error: str, lost: bool) -> Ended:
        del self.tasks[task.job.spec.name]
        wall = round(time.monotonic() - task.started, 3)
        attempt = Attempt(
            task.started_at, now_iso(), wall, -1, task.job.resume, [], task.node, lost
        )
        return Ended(task.job, attempt, error)

    def nodes(self) -> list[NodeState]:
        """The cluster's nodes: alive or dead, runs on each now and finished there."""
        if time.monotonic() - self.node_table_at >= NODES_S:
            with contextlib.suppress(Exception):  # progress only: keep the last table
                self.node_table = self.ray.nodes()
            self.node_table_at = time.monotonic()
        running = Counter(t.node_id for t in self.tasks.values() if t.node_id)
        names = Counter(n.get("NodeName") for n in self.node_table)
        states = []
        for n in self.node_table:
            name, node_id = str(n.get("NodeName")), str(n.get("NodeID"))
            if names[name] > 1:  # several nodes on one address, unnamed
                name = f"{name}/{node_id[:6]}"
            gpus = float((n.get("Resources") or {}).get("GPU", 0))
            alive = bool(n.get("Alive"))
            states.append(NodeState(name, alive, running[node_id], self.done_on[node_id], gpus))
        return states

    def stop(self) -> list[Ended]:
        """Cancel every task: their runs continue from the driver's copy on the next rerun."""
        for task in self.tasks.values():
            self.ray.cancel(task.stream, force=True)
        self.tasks.clear()
        return []

    def close(self) -> None:
        self.stop()
        self.ray.shutdown()
