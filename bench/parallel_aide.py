"""AIDE with several nodes in flight: nodes completed per hour of wall time, harness overhead per
node, memory, and best score against wall time, at N = 1, 2, 4, 8.

    .venv/bin/python bench/parallel_aide.py                       # N = 1 2 4 8, greedy, ~4 min
    .venv/bin/python bench/parallel_aide.py --widths 1 4 --policies greedy mcts evolutionary

THE MODEL HERE IS A STAND-IN, NOT A LANGUAGE MODEL. It answers each request after
``--latency`` seconds, choosing its reply from the request: an operator's prompt gets a script
that sleeps ``--run-time`` seconds, copies the sample submission and prints a score; the score
is a seeded function of the operator, the parent's score and the node (a draft draws one, an
improvement moves its parent's, a debug fixes the parent, a crossover lifts the better parent),
and one script in ten raises. A review reads the score back from the run's output. The numbers
therefore measure the harness and the schedule, not a model: throughput against N, the cost of
each node beyond its model latency and run time, and memory (the harness's peak resident set,
and the PSS of the agent's processes, that is the kernels, at the end of the search).

A node's time runs from its first model request to its end in the journal; its overhead is
that time less the work it stands for (two replies and one script run), and the ratio of node
times at N against N = 1 is the overhead goal's measure, since the overhead itself is near zero
at N = 1 (a ratio of two near-zero numbers says nothing).

Nodes per hour count the search's own time (the agent's clock: starting the lanes' kernels and
grading are not in it); nodes still in flight at the time limit are lost work, as in a real
run. Each configuration runs in its own process, so its peak memory is its own. Goals (issue 31):
at N = 4 at least 3.5x the nodes per hour of N = 1, node time within 1.1x of N = 1,
harness memory within +10% of N = 1, each further idle kernel at most 50 MB PSS.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
OPERATORS = {
    "a new solution": "draft",
    "improve a working": "improve",
    "fix a broken": "debug",
    "combine two": "crossover",
}


class StandIn:
    """Chooses its reply from the request; see the module's docstring."""

    def __init__(self, seed: int, latency_s: float, run_s: float):
        self.seed, self.latency_s, self.run_s = seed, latency_s, run_s
        self.scores: dict[int, float] = {}

    def score(self, node: int, operator: str, parents: list[int]) -> float | None:
        rng = random.Random(f"{self.seed}-{operator}-{parents}-{node}")
        if rng.random() < 0.1:
            return None  # a bug
        known = [self.scores[p] for p in parents if p in self.scores]
        if operator == "draft" or not known:
            return rng.uniform(0.5, 0.8)
        if operator == "improve":
            return min(1.0, known[0] + rng.gauss(0.02, 0.03))
        if operator == "crossover":
            return min(1.0, max(known) + rng.gauss(0.03, 0.03))
        return known[0]  # debug: the intended solution, fixed

    def __call__(self, messages: list[Any], tools: Any) -> dict[str, Any]:
        from aide_tree.cassette import operator_reply, review_call
        from scaffolds.record import current_node

        time.sleep(self.latency_s)
        text = str(messages[-1]["content"])
        if tools:  # the review: read the score back from the output
            found = re.search(r"score=([0-9.]+)", text)
            metric = float(found.group(1)) if found else None
            return review_call(metric is None, "Read the score.", metric)
        node = current_node() or 0
        operator = next((op for key, op in OPERATORS.items() if key in text[:200]), "draft")
        parents = [int(p) for p in re.findall(r"\(attempt (\d+)", text)][:2]
        score = self.score(node, operator, parents)
        sample = 'shutil.copy("data/sample_submission.csv", "submission/submission.csv")'
        body = f"import shutil, time\ntime.sleep({self.run_s})\n{sample}\n"
        if score is None:
            body += 'raise ValueError("a deliberate bug")\n'
        else:
            self.scores[node] = score
            body += f'print("score={score:.4f}")\n'
        return operator_reply(f"{operator} of {parents}", body)


def agent_pss_mb(uid: int | None) -> float:
    """The PSS of every process of the agent user (its kernels), in MB."""
    if uid is None:
        return float("nan")
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.stat(f"/proc/{pid}").st_uid != uid:
                continue
            with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def one(width: int, policy: str, args: argparse.Namespace) -> dict[str, Any]:
    """One search in this process; its measurements as a dict."""
    from aide_tree import Aide, AideConfig
    from aide_tree.parallel import ParallelAide
    from scaffolds.replay import ScriptedModel
    from scaffolds.runtime import Run, execute, open_run

    pss: list[float] = []

    def measured(base: type[Aide]) -> type[Aide]:
        class Measured(base):  # type: ignore[valid-type,misc]
            def close(self) -> None:
                pss.append(agent_pss_mb(self.run.sandbox.uid))
                super().close()

        return Measured

    folder = Path(tempfile.mkdtemp(prefix="parallel-aide-"))
    os.chmod(folder, 0o711)
    config = AideConfig(
        model="stand-in",
        task="demo/tabular-binary",
        out=folder / "run",
        steps=None,
        time_limit=args.seconds,
        policy=policy,
        parallel_nodes=width,
        seed=args.seed,
        num_drafts=4,
    )
    stand_in = StandIn(args.seed, args.latency, args.run_time)
    run: Run = open_run(config, "aide", model=ScriptedModel(stand_in))
    agent = measured(ParallelAide if width > 1 else Aide)
    started = time.monotonic()
    execute(run, lambda r: agent(r).search())
    wall = time.monotonic() - started
    search_s = float(json.loads((run.dir / "run.json").read_text())["agent_time_s"])
    lines = (run.dir / "journal.jsonl").read_text().splitlines()[1:]
    nodes = [json.loads(line) for line in lines]
    trail = [json.loads(line) for line in (run.dir / "trajectory.jsonl").open()]
    ends = {e["id"]: e["t"] for e in trail if e["kind"] == "node"}
    begins: dict[int, float] = {}
    for e in trail:
        if e["kind"] == "model_call" and "node" in e:
            begins.setdefault(e["node"], e["t"] - args.latency)
    spans = [ends[i] - begins[i] for i in ends if i in begins]
    work = 2 * args.latency + args.run_time
    best, curve = None, []
    for node in sorted(nodes, key=lambda n: ends.get(n["id"], 0)):
        if not node["is_buggy"] and node["metric"] is not None:
            best = node["metric"] if best is None else max(best, node["metric"])
        curve.append((round(ends.get(node["id"], 0) - min(begins.values(), default=0), 1), best))
    return {
        "width": width,
        "policy": policy,
        "nodes": len(nodes),
        "wall_s": round(wall, 1),
        "search_s": round(search_s, 1),
        "nodes_per_hour": round(len(nodes) / search_s * 3600, 1),
        "node_s": round(sum(spans) / max(1, len(spans)), 3),
        "overhead_per_node_s": round(sum(spans) / max(1, len(spans)) - work, 3),
        "harness_peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "kernels_pss_mb": round(pss[0], 1) if pss else None,
        "best": best,
        "curve": curve,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--widths", type=int, nargs="+", default=[1, 2, 4, 8])
    parser.add_argument("--policies", nargs="+", default=["greedy"])
    parser.add_argument("--seconds", type=float, default=40.0, help="time limit of each search")
    parser.add_argument("--latency", type=float, default=0.5, help="seconds per model reply")
    parser.add_argument("--run-time", type=float, default=2.0, help="seconds each script runs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--one", nargs=2, metavar=("WIDTH", "POLICY"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(int(args.one[0]), args.one[1], args)))
        return
    rows = []
    for policy in args.policies:
        for width in args.widths:
            cmd = [sys.executable, __file__, "--one", str(width), policy]
            cmd += ["--seconds", str(args.seconds), "--latency", str(args.latency)]
            cmd += ["--run-time", str(args.run_time), "--seed", str(args.seed)]
            env = {**os.environ, "PYTHONPATH": str(REPO)}
            done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
            rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
            print_row(rows[-1], rows)
    print("\nbest score against wall time (s):")
    for row in rows:
        points = [f"{t:.0f}s:{b:.3f}" for t, b in row["curve"] if b is not None][
            :: max(1, len(row["curve"]) // 8)
        ]
        print(f"  {row['policy']:<12} N={row['width']:<2} " + " ".join(points))


def print_row(row: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    base = next((r for r in rows if r["policy"] == row["policy"] and r["width"] == 1), None)
    speedup = "" if base is None else f"  x{row['nodes_per_hour'] / base['nodes_per_hour']:.2f}"
    slower = "" if base is None else f" (x{row['node_s'] / base['node_s']:.3f} of N=1)"
    print(
        f"{row['policy']:<12} N={row['width']:<2} nodes={row['nodes']:<4} "
        f"nodes/h={row['nodes_per_hour']:<8}{speedup:<8} node={row['node_s']}s{slower} "
        f"overhead/node={row['overhead_per_node_s']}s "
        f"harness peak={row['harness_peak_mb']} MB  kernels PSS={row['kernels_pss_mb']} MB "
        f"best={row['best']}",
        flush=True,
    )


if __name__ == "__main__":
    main()
