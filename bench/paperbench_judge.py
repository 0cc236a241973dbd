"""Benchmark: the PaperBench rubric judge's own overhead, and what concurrency buys.

    python bench/paperbench_judge.py                  # both measurements
    python bench/paperbench_judge.py --latency 0.5 --leaves 64

1. Harness time per leaf: the 1,963-leaf ``pinn`` rubric (read from ``../shared/reference``)
   graded by an instant scripted judge, against a synthetic paper (100k characters), a
   submission of 40 files (500k characters: more than one prompt holds) and a 60k-character
   ``reproduce.log``, so every prompt is full-sized and every code leaf has its files ranked.
   What is timed is everything but the model: file selection (each way), prompt building,
   hashing for the judge log, parsing, aggregation. Goal: 5 ms per leaf or less (wall; the CPU
   time is printed too, since a shared machine stretches the wall time).
2. Concurrency: the first ``--leaves`` leaves graded through litellm against a local
   OpenAI-compatible server that answers every request after ``--latency`` seconds, once with 1
   worker and once with 16, side by side. Goal: 16 workers 10x faster or more.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench_adapters.paperbench.grading import GradingOptions, grade_rubric  # noqa: E402
from bench_adapters.paperbench.rubric import RubricNode, load_rubric  # noqa: E402
from bench_adapters.paperbench.scoring import graded_leaves  # noqa: E402
from scaffolds.messages import ModelResponse, ToolCall, Usage  # noqa: E402
from scaffolds.model import LiteLLMModel, ModelConfig  # noqa: E402
from scaffolds.replay import ScriptedModel  # noqa: E402

PINN = REPO.parent / "shared" / "reference" / "paperbench" / "papers" / "pinn" / "rubric.json"
GOAL_MS_PER_LEAF = 5.0
GOAL_SPEEDUP = 10.0
VERDICT = {"expectations": "the paper's setup", "reality": "the same setup", "score": 1}


def write_case(root: Path) -> tuple[Path, Path, str]:
    """A paper folder (rubric from pinn), a 40-file submission and a long reproduce.log."""
    paper = root / "paper"
    paper.mkdir()
    (paper / "rubric.json").write_text(PINN.read_text())
    sentence = "We train physics-informed networks with Adam and L-BFGS on Burgers' equation. "
    (paper / "paper.md").write_text("# A PINN paper\n\n" + sentence * 1300)
    (paper / "addendum.md").write_text("Any width between 50 and 100 is acceptable.\n")
    sub = root / "submission"
    (sub / "src").mkdir(parents=True)
    (sub / "reproduce.sh").write_text("#!/bin/bash\npython -m src.train\n")
    (sub / "README.md").write_text("# Reproduction of the PINN paper\n" + "Notes.\n" * 200)
    for i in range(38):
        body = f"def step_{i}(model, lr=1e-3):\n    return model.adam(lr) + {i}\n" * 240
        (sub / "src" / f"module_{i}.py").write_text(
            f'"""Module {i}: Burgers, Adam, L-BFGS."""\n{body}'
        )
    (sub / "results.csv").write_text("width,l2_error\n50,0.01\n100,0.008\n")
    log = "".join(f"epoch {i} loss {1 / (i + 1):.6f} l2 {0.5 / (i + 1):.6f}\n" for i in range(1500))
    return paper, sub, log


def instant_judge() -> ScriptedModel:
    def policy(messages: list[dict[str, Any]], tools: Any) -> ModelResponse:
        tool = tools[0]["function"]
        ranking = "files" in tool["parameters"]["properties"]
        args = {"files": ["src/module_3.py", "README.md"]} if ranking else VERDICT
        return ModelResponse(None, [ToolCall("c", tool["name"], json.dumps(args))], Usage(1, 1))

    return ScriptedModel(policy, name="instant")


def harness_time(
    paper: Path, sub: Path, log: str, rubric: RubricNode
) -> dict[str, tuple[float, float]]:
    """Wall and CPU milliseconds per leaf for each file selection, best of two runs (the
    submission is too big for one prompt, so every code leaf has its files ranked)."""
    changed = ["results.csv"]
    result = {}
    for selection in ("bm25", "llm"):
        options = GradingOptions(file_selection=selection)  # type: ignore[arg-type]
        times, cpu = [], []
        for _ in range(2):
            started, started_cpu = time.perf_counter(), time.process_time()
            report = grade_rubric(rubric, paper, sub, log, changed, options, instant_judge())
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
        rankings = {
            leaf["judge_metadata"]["ranking"] for leaf in graded_leaves(report["graded_tree"])
        }
        assert rankings == {selection, "all"}, rankings  # "all": Result Analysis leaves fit
        n = len(rubric.leaves())
        result[selection] = (min(times) * 1000 / n, min(cpu) * 1000 / n)
    return result


@contextmanager
def slow_server(latency_s: float) -> Iterator[str]:
    """An OpenAI-compatible chat server that answers every request with a verdict, late."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            time.sleep(latency_s)
            tools = body.get("tools") or [{"function": {"name": "none"}}]
            name = tools[0]["function"]["name"]
            call = {
                "id": "c",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(VERDICT)},
            }
            payload = {
                "id": "x",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model", "bench"),
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "tool_calls",
                        "message": {"role": "assistant", "content": None, "tool_calls": [call]},
                    }
                ],
                "usage": {"prompt_tokens": 1000, "completion_tokens": 50, "total_tokens": 1050},
            }
            data = json.dumps(payload).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    finally:
        httpd.shutdown()
        httpd.server_close()


def first_leaves(rubric: RubricNode, n: int) -> RubricNode:
    """The rubric cut to its first ``n`` leaves (as one flat parent)."""
    return replace(rubric, sub_tasks=tuple(rubric.leaves()[:n]))


def concurrency(paper: Path, sub: Path, log: str, rubric: RubricNode, latency: float) -> dict:
    walls = {}
    with slow_server(latency) as url:
        model = LiteLLMModel(ModelConfig(model="openai/bench-judge", api_base=url, max_attempts=1))
        model.complete([{"role": "user", "content": "warm up"}], [], None)
        for workers in (1, 16):
            options = GradingOptions(file_selection="bm25", workers=workers)
            started = time.perf_counter()
            report = grade_rubric(rubric, paper, sub, log, ["results.csv"], options, model)
            walls[workers] = time.perf_counter() - started
            assert report["judge"]["leaves_invalid"] == 0, report["judge"]
    return walls


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.5, help="server latency, seconds")
    parser.add_argument("--leaves", type=int, default=64, help="leaves in the concurrency run")
    args = parser.parse_args()
    rubric = load_rubric(PINN)
    with tempfile.TemporaryDirectory() as tmp:
        paper, sub, log = write_case(Path(tmp))
        grade_rubric(
            first_leaves(rubric, 5), paper, sub, log, [], GradingOptions(), instant_judge()
        )
        per_leaf = harness_time(paper, sub, log, rubric)
        walls = concurrency(paper, sub, log, first_leaves(rubric, args.leaves), args.latency)
    for selection, (ms, cpu_ms) in per_leaf.items():
        verdict = "ok" if ms <= GOAL_MS_PER_LEAF else "OVER GOAL"
        print(
            f"harness time per leaf ({selection} file selection, {len(rubric.leaves())} leaves): "
            f"{ms:.2f} ms wall, {cpu_ms:.2f} ms CPU (goal <= {GOAL_MS_PER_LEAF:g} ms wall) "
            f"{verdict}"
        )
    speedup = walls[1] / walls[16]
    print(
        f"{args.leaves} leaves at {args.latency:g} s latency: 1 worker {walls[1]:.2f} s, "
        f"16 workers {walls[16]:.2f} s, speed-up {speedup:.1f}x (goal >= {GOAL_SPEEDUP:g}x) "
        f"{'ok' if speedup >= GOAL_SPEEDUP else 'UNDER GOAL'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
