"""Grids on a real Ray cluster on this machine: a head and two worker nodes, each its own
``ray start`` process, the workers with fake GPUs, each in its own mount namespace whose private
``/tmp`` and empty package folders hide the driver's grid folder, task data, cassettes and the
package, so that any shared-file-system assumption fails here.

One grid runs on the local backend (fake ``CUDA_VISIBLE_DEVICES``), the same grid on the
cluster, then again on the cluster while one worker node is SIGKILLed mid-run; the tests check
placement, each run's GPUs, that nothing is lost or counted twice, and that the tables agree.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from scaffolds.grid.ray_backend import PACKAGES
from tests.machine import require

pytestmark = [pytest.mark.ray, pytest.mark.slow, pytest.mark.serial]  # three nodes, own ports

RAY = str(Path(sys.executable).with_name("ray"))
OBJECT_STORE = str(80 * 2**20)
WORKERS = {"worker-a": 2, "worker-b": 1}
"""Worker node -> fake GPUs (and as many CPUs)."""
VICTIM = "worker-b"
SLEEP_S = 4
"""Step 2 of every run sleeps this long: the window in which a node is killed."""
HEALTH = {"health_check_period_ms": 500, "health_check_timeout_ms": 1000,
          "health_check_failure_threshold": 3}  # fmt: skip
"""A dead node is noticed in seconds, not the default half minute."""
RAY_ENV = {**os.environ, "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
"""Loopback only: no token (Ray turns token auth on when ~/.ray/auth_token exists)."""

GOOD = """import pandas as pd
from sklearn.linear_model import LogisticRegression, RidgeCV
train, test = pd.read_csv('data/train.csv'), pd.read_csv('data/test.csv')
X, y = train.drop(columns=['id', 'target']), train['target']
if y.nunique() == 2:
    pred = LogisticRegression(max_iter=1000).fit(X, y).predict_proba(test[X.columns])[:, 1]
else:
    pred = RidgeCV().fit(X, y).predict(test[X.columns])
pd.DataFrame({'id': test['id'], 'target': pred}).to_csv('submission/submission.csv', index=False)
print('validation score: 0.9')"""
WAIT = f"""import os, time
print('gpus=' + os.environ.get('CUDA_VISIBLE_DEVICES', 'unset'))
time.sleep({SLEEP_S})"""


def reply(content: str | None, name: str, args: dict[str, Any]) -> dict[str, Any]:
    call = {"type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
    usage = {"prompt_tokens": 100, "completion_tokens": 20, "cost_usd": 0.001}
    return {"role": "assistant", "content": content, "tool_calls": [call], "usage": usage}


def free_ports(count: int) -> Iterator[int]:
    """``count`` distinct free ports (held open together while chosen)."""
    sockets = [socket.socket() for _ in range(count)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [int(s.getsockname()[1]) for s in sockets]
    for s in sockets:
        s.close()
    return iter(ports)


def node_ports(ports: Iterator[int]) -> list[str]:
    """Every port a node listens on: three nodes share this host, so none may use a default."""
    names = ("node-manager", "object-manager", "dashboard-agent-listen", "dashboard-agent-grpc",
             "runtime-env-agent", "metrics-export")  # fmt: skip
    return [arg for name in names for arg in (f"--{name}-port", str(next(ports)))]


def namespace_of(pid: int) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/ns/mnt")
    except OSError:
        return None


def process_tree(pid: int, namespace: str | None) -> set[int]:
    """``pid``, its descendants, and every process in ``namespace``."""
    children: dict[int, list[int]] = {}
    found = {pid}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            stat = Path(f"/proc/{entry}/stat").read_text()
            children.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry))
            if namespace is not None and namespace_of(int(entry)) == namespace:
                found.add(int(entry))
    todo = list(found)
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


@dataclass
class Node:
    name: str
    process: subprocess.Popen[bytes]
    log: Path
    namespace: str | None = None
    """The worker's mount namespace; None for the head (which shares the driver's)."""

    def kill(self) -> None:
        """SIGKILL every process of the node: its Ray processes, the runs they started and
        the agents' kernels."""
        for pid in process_tree(self.process.pid, self.namespace):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.process.wait(timeout=30)


@dataclass
class Cluster:
    address: str
    head: Node
    workers: dict[str, Node]


def start_worker(name: str, gpus: int, address: str, root: Path, ports: Iterator[int]) -> Node:
    hidden = [Path("/tmp")]
    for package in PACKAGES:
        folder = Path(importlib.import_module(package).__file__ or "").parent
        if not any(folder.is_relative_to(h) for h in hidden):  # a checkout under /tmp is gone
            hidden.append(folder)
    steps = [f"mount -t tmpfs -o mode=1777 tmpfs {path}" for path in hidden]
    venv = Path(sys.prefix)
    if venv.is_relative_to("/tmp"):  # the node's interpreter stays: held open, bound back
        steps = [
            f"exec 3<{venv}",
            *steps,
            f"mkdir -p {venv}",
            f"mount --no-canonicalize --bind /proc/self/fd/3 {venv}",
        ]
    mounts = " && ".join(steps)
    ray = [RAY, "start", "--block", "--address", address, "--num-cpus", str(gpus),
           "--num-gpus", str(gpus), "--node-name", name, "--object-store-memory", OBJECT_STORE,
           "--disable-usage-stats", *node_ports(ports)]  # fmt: skip
    log = root / f"{name}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                "unshare",
                "--mount",
                "--propagation",
                "private",
                "sh",
                "-c",
                f'{mounts} && exec "$@"',
                "sh",
                *ray,
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env=RAY_ENV,
        )
    deadline = time.monotonic() + 10
    namespace = None
    while namespace in (None, namespace_of(os.getpid())) and time.monotonic() < deadline:
        time.sleep(0.05)
        namespace = namespace_of(process.pid)
    node = Node(name, process, log, namespace)
    if namespace == namespace_of(os.getpid()):
        node.kill()  # not left running when the test fails here
        raise AssertionError(f"{name}: no mount namespace of its own")
    return node


def wait_started(node: Node, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        text = node.log.read_text(errors="replace")
        if "Ray runtime started" in text:
            return
        assert node.process.poll() is None, f"{node.name} did not start:\n{text[-3000:]}"
        time.sleep(0.3)
    raise AssertionError(f"{node.name} did not start in {timeout_s}s")


@pytest.fixture(scope="module")
def root(agent_dir: Callable[[str], Path]) -> Path:
    return agent_dir("grid-ray-")


@pytest.fixture(scope="module")
def cluster(root: Path) -> Iterator[Cluster]:
    require(
        os.geteuid() == 0 and shutil.which("unshare") is not None,
        "a node's own mount namespace needs root and unshare",
    )
    ports = free_ports(32)
    port = next(ports)
    address = f"127.0.0.1:{port}"
    head_log = root / "head.log"
    with head_log.open("wb") as out:
        head = subprocess.Popen(
            [
                RAY,
                "start",
                "--head",
                "--block",
                "--port",
                str(port),
                "--num-cpus",
                "0",
                "--num-gpus",
                "0",
                "--include-dashboard",
                "false",
                "--object-store-memory",
                OBJECT_STORE,
                "--temp-dir",
                str(root / "ray"),
                "--ray-client-server-port",
                str(next(ports)),
                "--system-config",
                json.dumps(HEALTH),
                "--disable-usage-stats",
                *node_ports(ports),
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env=RAY_ENV,
        )
    nodes = [Node("head", head, head_log)]
    try:
        wait_started(nodes[0])
        for name, gpus in WORKERS.items():
            nodes.append(start_worker(name, gpus, address, root, ports))  # killed if a later fails
        for node in nodes[1:]:
            wait_started(node)
        yield Cluster(address, nodes[0], {n.name: n for n in nodes[1:]})
    finally:
        for node in reversed(nodes):
            with contextlib.suppress(Exception):
                node.kill()


def write_cassette(root: Path) -> str:
    path = root / "cassettes" / "basic.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    replies = [reply(None, "python", {"code": GOOD}), reply(None, "python", {"code": WAIT}),
               reply("Done.", "answer", {})]  # fmt: skip
    path.write_text("".join(json.dumps(r) + "\n" for r in replies))
    return f"replay:{path}"


def grid_argv(root: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "scaffolds.ablate", "--scaffolds", "basic", "--models",
            write_cassette(root), "--tasks", "demo/tabular-binary,demo/tabular-regression",
            "--seeds", "2", "--steps", "3", "--time-limit", "10m", "--gpus-per-run", "1",
            "--out", str(out), *extra]  # fmt: skip


def grid_env(root: Path, **extra: str) -> dict[str, str]:
    """The demo tasks' data lives under ``root`` too: hidden from the workers."""
    return {**RAY_ENV, "SCAFFOLDS_DEMO_DIR": str(root / "demo-data"), **extra}


def run_grid(argv: list[str], env: dict[str, str], timeout_s: float = 240) -> str:
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout_s)
    out = Path(argv[argv.index("--out") + 1])
    errors = [p.read_text()[-3000:] for p in out.glob("runs/*/grid_error.txt")]
    assert done.returncode == 0, done.stderr[-3000:] + "\n".join(errors[:1])
    return done.stderr


def records(grid: Path) -> dict[str, dict[str, Any]]:
    return {d.name: json.loads((d / "run.json").read_text()) for d in (grid / "runs").iterdir()}


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


COMPARED = ("status", "run_status", "made_submission", "valid_submission", "score", "any_medal",
            "gold_medal", "above_median", "tokens", "cost_usd", "steps")  # fmt: skip


def outcomes(grid: Path) -> dict[str, tuple[Any, ...]]:
    rows = {r["run"]: r for r in lines(grid / "results.jsonl")}
    return {name: tuple(row[k] for k in COMPARED) for name, row in rows.items()}


def intervals_overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return bool(a["started_at"] < b["ended_at"] and b["started_at"] < a["ended_at"])


def ends(run_dir: Path) -> list[dict[str, Any]]:
    return [e for e in lines(run_dir / "grid_attempts.jsonl") if e["event"] == "end"]


def assert_own_gpus(grid: Path, gpus_of: Callable[[str], int]) -> None:
    """Each run saw exactly one GPU of its node, the kernel too, and runs that overlapped on
    one node saw different ones."""
    seen = []
    for name, record in records(grid).items():
        placement = record["placement"]
        device = placement["cuda_visible_devices"]
        assert device is not None and device.isdigit(), (name, placement)
        assert int(device) < gpus_of(placement["node"]), (name, placement)
        trajectory = (grid / "runs" / name / "trajectory.jsonl").read_text()
        assert f"gpus={device}" in trajectory  # what the agent's own kernel saw
        seen += [(placement["node"], device, end) for end in ends(grid / "runs" / name)[-1:]]
    for i, (node, device, end) in enumerate(seen):
        for other_node, other_device, other in seen[i + 1 :]:
            if node == other_node and intervals_overlap(end, other):
                assert device != other_device, (node, device)


@pytest.fixture(scope="module")
def local_grid(root: Path) -> Path:
    """The grid on the local backend, given three (fake) GPUs and three runs at a time."""
    grid = root / "local"
    run_grid(grid_argv(root, grid, "--workers", "3"), grid_env(root, CUDA_VISIBLE_DEVICES="0,1,2"))
    return grid


@pytest.fixture(scope="module")
def ray_grid(root: Path, cluster: Cluster, local_grid: Path) -> tuple[Path, str]:
    grid = root / "ray"
    err = run_grid(grid_argv(root, grid, "--backend", "ray", "--ray-address", cluster.address),
                   grid_env(root))  # fmt: skip
    return grid, err


@pytest.fixture(scope="module")
def killed_grid(root: Path, cluster: Cluster, ray_grid: tuple[Path, str]) -> dict[str, Any]:
    """The grid on the cluster again; once a run on VICTIM has a checkpoint in the driver's
    copy, every process of that node is SIGKILLed. The grid must finish on the other node."""
    grid = root / "killed"
    argv = grid_argv(root, grid, "--backend", "ray", "--ray-address", cluster.address)
    log = root / "killed.log"
    with log.open("w") as out:
        process = subprocess.Popen(argv, env=grid_env(root), stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline, victim_run = time.monotonic() + 180, None
        while victim_run is None and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.1)
            for run_dir in (grid / "runs").glob("*") if (grid / "runs").is_dir() else []:
                # a record streamed back before its first step has no "steps" yet
                with contextlib.suppress(OSError, ValueError, KeyError):
                    record = json.loads((run_dir / "run.json").read_text())
                    if record["placement"]["node"] == VICTIM and record.get("steps", 0) >= 1:
                        victim_run = (run_dir.name, record)
        assert victim_run is not None, "no run on the victim node reached a checkpoint in time"
        cluster.workers[VICTIM].kill()
        trajectory_at_kill = (grid / "runs" / victim_run[0] / "trajectory.jsonl").read_text()
        process.wait(timeout=240)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, log.read_text()[-4000:]
    return {"grid": grid, "run": victim_run[0], "at_kill": victim_run[1],
            "trajectory_at_kill": trajectory_at_kill, "log": log.read_text()}  # fmt: skip


def test_grid_ray_places_each_run_on_a_worker_with_its_own_gpu(ray_grid) -> None:
    grid, err = ray_grid
    assert "4 runs, 0 already done, 4 to run" in err
    runs = records(grid)
    assert len(runs) == 4 and all(r["status"] == "submitted" for r in runs.values())
    nodes = {r["placement"]["node"] for r in runs.values()}
    assert nodes == set(WORKERS), nodes  # both workers, never the head (it has no CPU)
    assert_own_gpus(grid, lambda node: WORKERS[node])
    for name, record in runs.items():  # node and device are in the record, the row too
        row = {r["run"]: r for r in lines(grid / "results.jsonl")}[name]
        assert row["node"] == record["placement"]["node"] and row["attempts"] == 1
        assert record["placement"]["node_id"]
    # nothing was shared: every worker got the data and the cassette from the driver
    logs = {
        node: "".join(
            (grid / "runs" / n / "scaffold.log").read_text()
            for n, r in runs.items()
            if r["placement"]["node"] == node
        )
        for node in WORKERS
    }
    cassette = grid.parent / "cassettes" / "basic.jsonl"
    for node, text in logs.items():
        assert f"grid: copied {cassette} from the driver" in text, node
        assert f"grid: copied {grid.parent / 'demo-data'}" in text, node


def test_grid_ray_results_equal_the_local_backend(ray_grid, local_grid: Path) -> None:
    grid, _ = ray_grid
    assert outcomes(grid) == outcomes(local_grid)
    assert all(o[0] == "submitted" and o[3] for o in outcomes(grid).values())  # valid submissions
    for name in records(grid):
        ray, local = grid / "runs" / name, local_grid / "runs" / name
        kept = "submission/submission.csv"
        assert (ray / kept).read_bytes() == (local / kept).read_bytes(), name
        grades = [json.loads((d / "grade.json").read_text()) for d in (ray, local)]
        where = ("created_at", "submission_path")  # when, and the folder it ran in
        ray_grade, local_grade = [{k: v for k, v in g.items() if k not in where} for g in grades]
        assert ray_grade == local_grade and ray_grade["valid_submission"], name
        assert not (ray / "workspace" / "data").exists()
    for table in ("summary.csv", "summary.md"):
        assert (grid / table).read_text() == (local_grid / table).read_text()


def test_grid_ray_local_backend_gives_each_run_its_own_gpu(local_grid: Path) -> None:
    host = socket.gethostname()
    assert {r["placement"]["node"] for r in records(local_grid).values()} == {host}
    assert_own_gpus(local_grid, lambda node: 3)


def test_grid_ray_a_lost_node_loses_no_step_and_counts_none_twice(killed_grid, ray_grid) -> None:
    grid, name, at_kill = killed_grid["grid"], killed_grid["run"], killed_grid["at_kill"]
    clean, _ = ray_grid
    run_dir = grid / "runs" / name
    assert f"grid: {name} was lost on {VICTIM}" in killed_grid["log"]
    # the run was continued elsewhere, from its checkpoint: its attempts say so
    first, second = ends(run_dir)
    assert first["lost"] and first["node"] == VICTIM and first["exit_code"] == -1
    assert not second["lost"] and second["node"] != VICTIM and second["exit_code"] == 0
    record = json.loads((run_dir / "run.json").read_text())
    assert record["placement"]["node"] == second["node"] and record["steps"] == 3
    # the steps done on the dead node survived: nothing before the checkpoint was done again
    assert (run_dir / "trajectory.jsonl").read_text().startswith(killed_grid["trajectory_at_kill"])
    events = lines(run_dir / "trajectory.jsonl")
    starts = [i for i, e in enumerate(events) if e["kind"] == "start"]
    assert len(starts) == 2 and events[starts[1]]["resumed"]
    assert [e["placement"]["node"] for e in (events[i] for i in starts)] == [VICTIM, second["node"]]
    steps = [e for e in events if e["kind"] == "model_call" and e.get("purpose") == "step"]
    solved = [e for e in steps if "LogisticRegression" in json.dumps(e["message"])]
    assert len(solved) == 1 and at_kill["steps"] >= 1  # step 1 ran once, on the dead node
    checkpoints = [e["step"] for e in events if e["kind"] == "checkpoint"]
    assert checkpoints == sorted(set(checkpoints)) and checkpoints[-1] == 3  # none counted twice
    # every run is complete and consistent, one row each, and the table is the clean run's
    rows = lines(grid / "results.jsonl")
    assert len(rows) == 4 and len({r["run"] for r in rows}) == 4
    for row in rows:
        saved = json.loads((grid / row["run_dir"] / "run.json").read_text())
        assert row["status"] == saved["status"] == "submitted" and saved["steps"] == 3
        assert row["tokens"] == 3 * 120  # the clean run's: no call counted twice
        lost = [e for e in ends(grid / row["run_dir"]) if e["lost"]]
        assert all(e["node"] in (VICTIM, None) for e in lost)  # None: lost before it started
        assert row["attempts"] == len(lost) + 1 and (row["run"] != name or len(lost) == 1)
        assert not (grid / row["run_dir"] / "grid_error.txt").exists()
    assert not (grid / "old_attempts").exists()
    assert outcomes(grid) == outcomes(clean)
    assert (grid / "summary.csv").read_text() == (clean / "summary.csv").read_text()
