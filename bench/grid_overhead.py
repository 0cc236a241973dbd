"""Grid scheduling overhead per run: a Ray cluster against the local backend, in one run.

    .venv/bin/python bench/grid_overhead.py               # defaults below
    .venv/bin/python bench/grid_overhead.py --rounds 5    # more samples

Starts a Ray cluster on this machine (a head without CPUs and one worker node; as root the
worker gets its own mount namespace with a private /tmp, as if it were another machine). Then,
round after round so that a busy spell of this shared machine hits all three alike: the instant
run (BasicAgent on a replay model that gives up at once, one step) by hand, a grid of such runs
on the local backend, and the same grid with ``--backend ray --ray-address``, one run at a time.

A run's span is from the grid starting it to the grid having its end (``grid_attempts.jsonl``);
its overhead, the span less the same command run by hand. "Around its process" is the span less
the process's wall time as its backend measured it: on Ray (measured on the worker) that is
submission, placement, sending the folder, streaming the record back; locally it is ~0 by
construction. A grid's first run is reported apart (on Ray each grid is a new job, whose worker
process starts then), and so is a grid's fixed start-up (imports, planning, connecting to Ray).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

RUNS = 4  # instant runs per grid
ROUNDS = 3  # grids per backend
TASK = "demo/tabular-binary"
RAY = str(Path(sys.executable).with_name("ray"))
RAY_ENV = {**os.environ, "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
OBJECT_STORE = str(80 * 2**20)


def free_ports(count: int) -> Iterator[int]:
    sockets = [socket.socket() for _ in range(count)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [int(s.getsockname()[1]) for s in sockets]
    for s in sockets:
        s.close()
    return iter(ports)


def node_ports(ports: Iterator[int]) -> list[str]:
    names = ("node-manager", "object-manager", "dashboard-agent-listen", "dashboard-agent-grpc",
             "runtime-env-agent", "metrics-export")  # fmt: skip
    return [arg for name in names for arg in (f"--{name}-port", str(next(ports)))]


def wait_started(log: Path, process: subprocess.Popen[bytes], timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while "Ray runtime started" not in log.read_text(errors="replace"):
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"ray start failed:\n{log.read_text()[-2000:]}")
        time.sleep(0.3)


@contextlib.contextmanager
def cluster(root: Path) -> Iterator[tuple[str, str]]:
    """A head and one worker node; yields (address, what the worker is)."""
    ports = free_ports(24)
    port = next(ports)
    isolated = os.geteuid() == 0 and shutil.which("unshare") is not None
    head_cpus = "0" if isolated else "2"
    started: list[subprocess.Popen[bytes]] = []

    def start(argv: list[str], log: Path) -> None:
        process = subprocess.Popen(argv, stdout=log.open("wb"), stderr=subprocess.STDOUT,
                                   start_new_session=True, env=RAY_ENV)  # fmt: skip
        started.append(process)
        wait_started(log, process)

    try:
        start([RAY, "start", "--head", "--block", "--port", str(port), "--num-cpus", head_cpus,
               "--num-gpus", "0", "--include-dashboard", "false", "--object-store-memory",
               OBJECT_STORE, "--temp-dir", str(root / "ray"), "--ray-client-server-port",
               str(next(ports)), "--disable-usage-stats", *node_ports(ports)],
              root / "head.log")  # fmt: skip
        what = "one node, the head (not root: no namespace for a second one)"
        if isolated:
            ray = [RAY, "start", "--block", "--address", f"127.0.0.1:{port}", "--num-cpus", "2",
                   "--object-store-memory", OBJECT_STORE, "--disable-usage-stats",
                   *node_ports(ports)]  # fmt: skip
            start(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                   'mount -t tmpfs tmpfs /tmp && exec "$@"', "sh", *ray],
                  root / "worker.log")  # fmt: skip
            what = "a head without CPUs and a worker node with its own mount namespace and /tmp"
        yield f"127.0.0.1:{port}", what
    finally:
        for process in started:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@dataclass
class Samples:
    """One backend's numbers over every grid it ran (seconds)."""

    spans: list[float] = field(default_factory=list)
    """Each run but a grid's first: from the grid starting it to the grid having its end."""
    around: list[float] = field(default_factory=list)
    """The same runs' span minus the scaffold process's own wall time (as measured where it
    ran: by the driver locally, on the worker on Ray)."""
    firsts: list[float] = field(default_factory=list)
    """Each grid's first run (on Ray: a new job, so new worker processes)."""
    startups: list[float] = field(default_factory=list)
    """Each grid's command minus its runs: imports, planning, connecting, the report."""

    def add(self, out: Path, wall: float) -> None:
        spans, around = [], []
        for run in json.loads((out / "grid.json").read_text())["runs"]:
            log = [json.loads(x) for x in (out / "runs" / run["name"] / ATTEMPTS).open()]
            start = next(e for e in log if e["event"] == "start")
            end = next(e for e in log if e["event"] == "end")
            span = (at(end) - at(start)).total_seconds()
            spans.append(span)
            around.append(span - end["wall_s"])
        self.firsts.append(spans[0])
        self.spans += spans[1:]
        self.around += around[1:]
        self.startups.append(wall - sum(spans))

    def line(self, name: str) -> str:
        med = statistics.median
        return (
            f"{name:>6}: run {ms(med(self.spans))} median (min {ms(min(self.spans))}, "
            f"n={len(self.spans)}), around its process {ms(med(self.around))}; a grid's first "
            f"run {ms(med(self.firsts))}, a grid's start-up {med(self.startups):.1f} s"
        )


ATTEMPTS = "grid_attempts.jsonl"


def at(event: dict[str, str]) -> datetime:
    return datetime.fromisoformat(event["at"])


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def cassette(root: Path) -> Path:
    path = root / "give-up.jsonl"
    path.write_text(json.dumps({"role": "assistant", "content": "I give up."}) + "\n")
    return path


def run_bare(root: Path, out: Path, runs: int, bare: list[float]) -> None:
    """The scaffold command the grid runs, run by hand: what a run costs without a grid."""
    for seed in range(runs):
        argv = [sys.executable, "-m", "scaffolds.basic", "--model", f"replay:{cassette(root)}",
                "--task", TASK, "--out", str(out / str(seed)), "--seed", str(seed),
                "--steps", "1"]  # fmt: skip
        started = time.monotonic()
        subprocess.run(argv, env=RAY_ENV, capture_output=True, check=True, timeout=600)
        bare.append(time.monotonic() - started)


def run_grid(root: Path, out: Path, runs: int, samples: Samples, *backend: str) -> None:
    argv = [sys.executable, "-m", "scaffolds.ablate", "--scaffolds", "basic", "--models",
            f"replay:{cassette(root)}", "--tasks", TASK, "--seeds", str(runs), "--steps", "1",
            "--workers", "1", "--no-report", "--out", str(out), *backend]  # fmt: skip
    started = time.monotonic()
    done = subprocess.run(argv, env=RAY_ENV, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"{out.name} grid failed:\n{done.stderr[-3000:]}")
    samples.add(out, time.monotonic() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS, help="runs per grid (2 or more)")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="grids per backend")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="grid-overhead-"))
    os.chmod(root, 0o755)  # the agent user passes through to the workspaces
    RAY_ENV["SCAFFOLDS_DEMO_DIR"] = os.environ["SCAFFOLDS_DEMO_DIR"] = str(root / "demo-data")
    from bench_adapters import resolve_task

    resolve_task(TASK)  # generate the task's data before anything is timed
    local, ray = Samples(), Samples()
    bare: list[float] = []
    try:
        with cluster(root) as (address, what):
            for k in range(args.rounds):  # alternate, so that a busy spell hits all alike
                run_bare(root, root / f"bare{k}", args.runs, bare)
                run_grid(root, root / f"local{k}", args.runs, local)
                run_grid(root, root / f"ray{k}", args.runs, ray, "--backend", "ray",
                         "--ray-address", address)  # fmt: skip
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(
        f"grid scheduling overhead: {args.rounds} grids of {args.runs} instant runs per "
        f"backend, one run at a time, alternating; cluster: {what}"
    )
    med = statistics.median
    print(f"  bare: the scaffold command by hand, {ms(med(bare))} median (n={len(bare)})")
    print(local.line("local"))
    print(ray.line("ray"))
    print(
        f"overhead per run over the command by hand (medians): local "
        f"{ms(med(local.spans) - med(bare))}, ray {ms(med(ray.spans) - med(bare))}"
    )


if __name__ == "__main__":
    main()
