"""The body of one Ray task: one scaffold process on a worker node, its folder streamed back.

:func:`run_on_worker` is a generator; the driver reads what it yields, in this order:

- ``{"missing": [path, ...]}`` and nothing else: this node lacks inputs the driver has not sent
  yet (the driver sends them and submits the run again);
- ``{"placed": {"node", "node_id", "gpus"}}``: where the run is, and the GPUs it sees;
- ``{"delta": Delta}``, any number: changes to the run folder (:mod:`scaffolds.grid.mirror`);
- ``{"end": attempt}``: the process ended, after its last delta.

The run works in a temporary folder of the node, started from the driver's copy (``payload``).
Inputs (task data, replay cassettes) are read at the same absolute path as on the driver: a node
that has the path uses its own copy (a cassette must match the driver's byte for byte), a node
that lacks it gets the driver's copy written there.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from scaffolds.grid.command import launched, scaffold_argv
from scaffolds.grid.config import GridConfig
from scaffolds.grid.job import ensure_workspace_data
from scaffolds.grid.local import open_log
from scaffolds.grid.mirror import Outbox
from scaffolds.grid.plan import RunSpec
from scaffolds.grid.runstate import Attempt, now_iso, read_run_json
from scaffolds.grid.transfer import unpack
from scaffolds.grid.users import isolation_on, lease_free, lease_waiting
from scaffolds.grid.walls import WallWatch
from scaffolds.record import atomic_file

TICK_S = 0.25
"""How often the worker looks for a checkpoint to send."""


class StagingError(Exception):
    """A node's own copy of an input differs from the driver's."""


@dataclass(frozen=True)
class Input:
    """A file or folder a run reads at this absolute path on every node."""

    path: str
    digest: str | None = None
    """sha256 of a file: a node's own copy must match it."""
    ref: list[Any] = field(default_factory=list)
    """``[ObjectRef]`` of the driver's copy once it has been sent (see :func:`shipped`); in a
    list so that Ray hands the reference over unresolved and a node that has the path never
    fetches it."""


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def shipped(path: Path) -> dict[str, Any]:
    """The driver's copy of an input, as the object a node writes at the same path. Of a task
    folder, only ``prepared/`` and the folder's own files (description, leaderboard) travel,
    not what else lies there (e.g. MLE-bench's raw downloads)."""
    from scaffolds.grid.transfer import pack

    if not path.is_dir():
        return {"dir": False, "data": path.read_bytes(), "mode": path.stat().st_mode & 0o7777}

    def task_part(rel: str) -> bool:
        return rel.split("/")[0] == "prepared" or ("/" not in rel and (path / rel).is_file())

    select = task_part if (path / "prepared").is_dir() else (lambda rel: True)
    return {"dir": True, "data": pack(path.resolve(), select), "mode": 0}


def place(copy: dict[str, Any], path: Path) -> None:
    """Write the driver's copy of an input (``shipped``) at ``path``, whole or not at all: a
    file through the suite's one atomic writer (``atomic_file``), with the driver's mode; a
    folder unpacked beside ``path`` and renamed into place, unless another run on this node
    placed it first (then that one is kept)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not copy["dir"]:
        with atomic_file(path, copy["mode"]) as f:
            f.write(copy["data"])
            os.fchmod(f.fileno(), copy["mode"])  # the driver's mode exactly, not less the umask
        return
    tmp = path.parent / f".{path.name}.{os.getpid()}.staging"
    unpack(copy["data"], tmp)
    try:
        os.rename(tmp, path)
    except OSError:
        if not path.exists():
            raise
        shutil.rmtree(tmp, ignore_errors=True)  # another run on this node was first


def stage(inputs: list[Input]) -> tuple[list[str], list[str]]:
    """Make each input present on this node: (paths still missing, notes on what was copied)."""
    import ray

    missing, notes = [], []
    for item in inputs:
        path = Path(item.path)
        if path.exists():
            if item.digest is not None and sha256(path) != item.digest:
                raise StagingError(f"{path} on this node differs from the driver's copy")
            continue
        if not item.ref:
            missing.append(item.path)
            continue
        copy = ray.get(item.ref[0])
        place(copy, path)
        notes.append(f"grid: copied {path} from the driver ({len(copy['data']):,} bytes)")
    return missing, notes


def this_node() -> dict[str, str]:
    """This worker's Ray node: its name (``ray start --node-name``, by default its IP) and id."""
    import ray

    node_id = ray.get_runtime_context().get_node_id()
    name = next((n["NodeName"] for n in ray.nodes() if n["NodeID"] == node_id), node_id[:12])
    return {"node": str(name), "node_id": node_id}


def run_on_worker(
    config: GridConfig,
    spec_dict: dict[str, Any],
    payload: bytes,
    resume: bool,
    inputs: list[Input],
    cwd: str,
) -> Iterator[dict[str, Any]]:
    """Run one scaffold process here, yielding its folder's changes as it works."""
    import ray

    missing, notes = stage(inputs)
    if missing:
        yield {"missing": missing}
        return
    node = this_node()
    gpus = ",".join(str(g) for g in ray.get_gpu_ids())
    yield {"placed": {**node, "gpus": gpus}}
    spec = RunSpec.from_dict(spec_dict)
    tmp = Path(tempfile.mkdtemp(prefix="scaffolds-grid-"))
    os.chmod(tmp, 0o711)  # the agent user must pass through to the workspace
    run_dir = tmp / spec.name
    lease = None
    try:
        unpack(payload, run_dir)
        outbox = Outbox(run_dir)  # the driver holds exactly this
        if resume:
            ensure_workspace_data(run_dir, spec.task, config.data_dir)
        if isolation_on():  # a resumed run needs the agent user that owns its files
            saved = ((read_run_json(run_dir) or {}).get("config") or {}).get("agent_user")
            lease = lease_waiting(saved) if resume and saved else lease_free()
        user = lease.name if lease is not None and not resume else None
        argv = scaffold_argv(config, spec, run_dir, resume, user, python=sys.executable)
        env = {
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "CUDA_VISIBLE_DEVICES": gpus,  # only its own GPUs; none for a run that needs none
            "SCAFFOLDS_NODE": node["node"],
            "SCAFFOLDS_NODE_ID": node["node_id"],
        }
        started_at, started = now_iso(), time.monotonic()
        with open_log(run_dir, argv) as log:
            log.write("".join(f"{note}\n" for note in notes).encode())
            log.flush()
            process = subprocess.Popen(
                launched(argv, os.getpid(), run_dir),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=cwd if os.path.isdir(cwd) else tmp,
                env=env,
                start_new_session=True,
            )
            watch = WallWatch(run_dir, started)
            while process.poll() is None:
                time.sleep(TICK_S)
                if watch.check(process.pid, lease.name if lease is not None else None):
                    process.wait()
                    watch.settle()
                due = outbox.due()
                if due and (delta := outbox.take(logs_only=due == "logs")):
                    yield {"delta": delta}
        wall = round(time.monotonic() - started, 3)
        attempt = Attempt(
            started_at, now_iso(), wall, process.returncode, resume, argv, node["node"]
        )
        last = outbox.take()
    finally:  # before the end is told: the driver may end the job as soon as it knows
        if lease is not None:
            lease.release()
        shutil.rmtree(tmp, ignore_errors=True)
    if last:
        yield {"delta": last}
    yield {"end": asdict(attempt)}
