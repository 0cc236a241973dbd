"""``make demo``: AIDE on a demo task, offline, with the bundled local model; or a hosted one.

    python -m scaffolds.demo                                  # SmolLM2-135M via llama.cpp, no key
    python -m scaffolds.demo --model anthropic/claude-sonnet-4-5 --task demo/tabular-regression

Runs a short AIDE search, grades the result like any run, and prints a summary with the paths
to ``run.json`` and ``tree.html``.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

from aide_tree import Aide, AideConfig, Node
from scaffolds.budget import parse_duration
from scaffolds.entry import draw
from scaffolds.exit_codes import BAD_INPUT, FAILED_STATUSES, HELP, for_status, sigterm_interrupts
from scaffolds.messages import ModelError
from scaffolds.model import LiteLLMModel
from scaffolds.runtime import RunSetupError, default_run_dir, execute, open_run

LOCAL_SERVER_WINDOW = 4096
LOCAL: dict[str, Any] = {
    "steps": 5,
    "time_limit": 180.0,
    "exec_timeout": 60.0,
    "max_output_tokens": 384,
    "context_window": 1536,  # prompts are cut to fit: reading them dominates on a CPU
    "preview_chars": 1000,
    "temperature": 0.7,
    "request_timeout_s": 180.0,
    "max_attempts": 2,
}
"""The bundled model: a few short steps with short prompts."""
HOSTED: dict[str, Any] = {"steps": 8, "time_limit": 600.0, "exec_timeout": 120.0}
HONEST_NOTE = (
    "note: SmolLM2-135M is a tiny model. Its code rarely runs and its reviews are shaky, so this "
    "run ending without a valid submission is a normal end for it, not a fault. The demo shows "
    "the machinery (search, execution, review, record, grading) working offline; for a real "
    "attempt use make demo MODEL=<litellm model>."
)
FIX_LOCAL = (
    "the bundled local model failed, so the demo did not run. Check it with "
    "`.venv/bin/python -m scaffolds.local_llm --check`; if its build does not fit this CPU, "
    "rebuild it (README: local model)."
)
FIX_HOSTED = "check the model string, --api-base and the provider's API key variable."


class ReportingAide(Aide):
    """AIDE that prints one line per node as the search goes."""

    def record(self, node: Node) -> None:
        super().record(node)
        state = f"buggy ({why_buggy(node)})" if node.is_buggy else f"ok, metric {node.metric:.4g}"
        parent = "" if node.parent_id is None else f" of #{node.parent_id}"
        print(f"  step {node.step}: #{node.id} {node.operator}{parent} -> {state}", flush=True)


def why_buggy(node: Node) -> str:
    if not node.code:
        return "no code in the answer"
    if node.timed_out:
        return "timed out"
    if node.exception:
        return node.exception
    if not node.submission_valid:
        return "no valid submission"
    return "the review found a bug" if node.metric is not None else "no metric"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m scaffolds.demo",
        description="Run AIDE on a demo task: offline with the bundled SmolLM2-135M by default.",
        epilog=f"example:\n  python -m scaffolds.demo --task demo/tabular-binary\n\n{HELP}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--model", help="a litellm model string (default: the bundled local model)")
    parser.add_argument("--api-base", help="base URL of an OpenAI-compatible server, for --model")
    parser.add_argument("--task", default="demo/tabular-binary", help="task reference")
    parser.add_argument("--steps", type=int, help="nodes to create (default 5 local, 8 hosted)")
    parser.add_argument("--time-limit", help="e.g. 3m (default 3m local, 10m hosted)")
    parser.add_argument("--out", type=Path, help="run folder (default runs/aide-<task>-<time>)")
    return parser.parse_args(argv)


def bad_input(message: object) -> int:
    print(f"python -m scaffolds.demo: error: {str(message).splitlines()[0]}", file=sys.stderr)
    return BAD_INPUT


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.getLogger("bench_adapters").setLevel(logging.ERROR)  # the summary says it all
    settings = dict(HOSTED if args.model else LOCAL)
    if args.steps:
        settings["steps"] = args.steps
    if args.time_limit:
        try:
            settings["time_limit"] = parse_duration(args.time_limit)
        except ValueError as exc:
            return bad_input(f"--time-limit: {exc}")
        settings["exec_timeout"] = min(settings["exec_timeout"], settings["time_limit"])
    out = args.out or default_run_dir("aide", args.task)
    llm = None
    if args.model:
        who, model = args.model, {"model": args.model, "api_base": args.api_base}
    else:
        from scaffolds.local_llm import LocalLLM, LocalModelUnavailable

        print("starting the bundled model (llama.cpp + SmolLM2-135M) ...", flush=True)
        try:
            llm = LocalLLM.start(n_ctx=LOCAL_SERVER_WINDOW)
        except LocalModelUnavailable as exc:
            return bad_input(exc)
        who, model = (
            "SmolLM2-135M (local, llama.cpp)",
            {"model": llm.model, "api_base": llm.api_base},
        )
    try:
        try:
            config = AideConfig(task=args.task, out=out, num_drafts=2, **model, **settings)
            # the bundled server is watched, so its death is named; other models as usual
            client = None if llm is None else LiteLLMModel(config.model_settings(), watch=llm)
            run = open_run(config, "aide", model=client)
        except (RunSetupError, ModelError, ValueError, RuntimeError, OSError) as exc:
            return bad_input(exc)  # a pydantic ValidationError is a ValueError
        started = time.monotonic()
        minutes = config.time_limit / 60
        print(
            f"AIDE on {args.task} with {who}: at most {config.steps} steps in {minutes:g} minutes"
        )
        with sigterm_interrupts():
            status, grade = execute(run, lambda r: ReportingAide(r).search())
            draw(run)
    finally:
        if llm is not None:
            llm.stop()
    print(summary(run.dir, status, grade, time.monotonic() - started))
    if status in FAILED_STATUSES:
        error = json.loads((run.dir / "run.json").read_text()).get("error")
        print(f"FAILED ({status}): {error}")
        if status == "model_error":
            print(FIX_LOCAL if llm is not None else FIX_HOSTED)
    elif status == "interrupted":
        print("interrupted: what the run did is kept in its record (above)")
    elif llm is not None:
        print(HONEST_NOTE)
    return for_status(status)


def summary(run_dir: Path, status: str, grade: dict[str, Any], wall_s: float) -> str:
    lines = (run_dir / "journal.jsonl").read_text().splitlines()[1:]
    nodes = [json.loads(line) for line in lines]
    buggy = sum(n["is_buggy"] for n in nodes)
    record = json.loads((run_dir / "run.json").read_text())
    best = record.get("best_node")
    medal = next((m for m in ("gold", "silver", "bronze") if grade.get(f"{m}_medal")), "none")
    if best is None:
        best_line = "no working solution"
    else:
        best_line = f"best node #{best}, validation metric {record.get('best_metric')}"
    return "\n".join(
        [
            f"done in {wall_s:.0f} s: status {status}, {len(nodes)} nodes ({buggy} buggy), "
            f"{best_line}",
            f"grade: valid submission {grade.get('valid_submission')}, "
            f"score {grade.get('score')}, medal {medal}",
            f"record: {run_dir / 'run.json'}",
            f"tree:   {run_dir / 'tree.html'}",
        ]
    )


if __name__ == "__main__":
    raise SystemExit(main())
