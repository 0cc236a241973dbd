"""``python -m bench_adapters.tam``: ranks, constraint verdicts, difficulty, aggregates, fixtures.

Grading and validation are the common commands: ``python -m bench_adapters grade --task
tam/<modality>/<difficulty> --submission FILE [--judge-model M]``.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from pathlib import Path
from typing import Any

from bench_adapters.cli import BadInput, OneLineParser

EXAMPLES = """examples:
  python -m bench_adapters.tam rank --task tam/tabular/easy --score 2.85
  python -m bench_adapters.tam rank --task tam/multimodal/hard --score=-7.6e8
  python -m bench_adapters.tam constraints --task tam/text/medium --code best_solution.py \\
      --judge-model gpt-4o
  python -m bench_adapters.tam difficulty --range metric --trim 3
  python -m bench_adapters.tam aggregate results.jsonl --split lite
  python -m bench_adapters.tam synthetic --data-dir ~/tam-synthetic

exit codes: 0 success, 1 the judge model failed (no pass rate), 2 bad input (unknown task,
unreadable file, bad arguments)"""


def _task_id(ref: str) -> str:
    from bench_adapters.tam.aggregate import task_id_of

    try:
        return task_id_of(ref)
    except ValueError as e:
        raise BadInput(f"{e} (tasks: python -m bench_adapters list --benchmark tam)") from e


def _log_base(text: str) -> float:
    if text == "e":
        return math.e
    try:
        base = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number or e: {text!r}") from None
    if base <= 1:
        raise argparse.ArgumentTypeError(f"must be above 1: {text!r}")
    return base


NEGATIVE = re.compile(r"-(\d+\.?\d*|\.\d+)(e[-+]?\d+)?", re.IGNORECASE)


def negative_scores_joined(argv: list[str]) -> list[str]:
    """``--score -7.6e8`` as ``--score=-7.6e8``: argparse takes ``-7.6e8`` for an option."""
    out: list[str] = []
    for token in argv:
        if out and out[-1] == "--score" and NEGATIVE.fullmatch(token):
            out[-1] = f"--score={token}"
        else:
            out.append(token)
    return out


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="python -m bench_adapters.tam",
        description="TAM-Bench Lite: leaderboard ranks, the constraint judge, the difficulty "
        "model, the paper's aggregates and synthetic data.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, text: str) -> argparse.ArgumentParser:
        return sub.add_parser(
            name, help=text, epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter
        )

    p = add("rank", "print {rank, participants, rank_pct} of a score on the task's leaderboard")
    p.add_argument("--task", required=True, help="e.g. tam/tabular/easy")
    p.add_argument(
        "--score", required=True, type=float, help="the metric's value (e.g. --score=-7.6e8)"
    )

    p = add("constraints", "judge the task's special instructions on a code file")
    p.add_argument("--task", required=True)
    p.add_argument("--code", required=True, type=Path, help="the final code (best_solution.py)")
    p.add_argument("--judge-model", required=True, help="any litellm model, or replay:FILE")
    p.add_argument("--judge-api-base", help="OpenAI-compatible server for --judge-model")
    p.add_argument("--max-judge-cost", type=float, help="stop asking once this many USD are spent")
    p.add_argument("--workers", type=int, default=8, help="questions in flight (default: 8)")
    p.add_argument("--log", type=Path, help="append-only judge log (repeats are then free)")
    p.add_argument("--json", action="store_true", help="print the verdicts as JSON")

    p = add("difficulty", "the paper's difficulty formula per task, and its agreement")
    p.add_argument("--task", help="one task (default: all 18)")
    p.add_argument(
        "--range",
        choices=["leaderboard", "metric"],
        default="leaderboard",
        help="min/max from the leaderboard (default) or the metric's bounds where bounded",
    )
    p.add_argument(
        "--trim",
        type=float,
        default=None,
        help="drop scores beyond this many IQRs outside the quartiles (default: keep all)",
    )
    p.add_argument("--log-base", type=_log_base, default=10.0, help="10 (default) or e")

    p = add("aggregate", "Tables 2-4 of the paper from per-task results (JSON lines)")
    p.add_argument("results", type=Path, metavar="RESULTS.jsonl")
    p.add_argument("--split", choices=["lite"], help="count tasks missing from the file as failed")

    p = add("synthetic", "write synthetic prepared data for TAM tasks (to try things offline)")
    p.add_argument("--data-dir", required=True, type=Path, help="the TAM data root to fill")
    p.add_argument("--tasks", help="comma-separated task references (default: all 18)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--overwrite", action="store_true", help="replace existing prepared data")
    return parser


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2))


def cmd_rank(args: argparse.Namespace) -> int:
    from bench_adapters.tam.rank import rank_score

    try:
        _print_json(rank_score(_task_id(args.task), args.score).to_dict())
    except ValueError as e:
        raise BadInput(str(e)) from e
    return 0


def cmd_constraints(args: argparse.Namespace) -> int:
    from bench_adapters.tam.constraints import judge_constraints, make_judge_model
    from bench_adapters.tam.specs import constraints_of
    from bench_adapters.tam.task import JudgeOptions
    from scaffolds.messages import ModelError

    task_id = _task_id(args.task)
    options = JudgeOptions(args.judge_model, args.judge_api_base, args.max_judge_cost)
    try:
        model = make_judge_model(options)
    except ModelError as e:
        raise BadInput(str(e)) from e
    result = judge_constraints(
        constraints_of(task_id),
        args.code,
        model,
        workers=args.workers,
        max_cost_usd=args.max_judge_cost,
        log=args.log,
    )
    if result.judge_error is not None:
        print(f"error: {result.judge_error}", file=sys.stderr)
        return 1
    if args.json:
        _print_json({"task": f"tam/{task_id}", "code": str(args.code), **result.to_dict()})
        return 0
    for v in result.verdicts:
        mark = "PASS" if v.passed else "FAIL"
        print(f"{v.index:>2}. {mark} {v.constraint}\n      {v.answer or '-'}: {v.reason}")
    total = len(result.verdicts)
    print(f"pass rate: {result.passed}/{total} = {result.pass_rate:.3f}")
    return 0


def cmd_difficulty(args: argparse.Namespace) -> int:
    from bench_adapters.tam.difficulty import Options, agreement_line, difficulties

    options = Options(range=args.range, trim=args.trim, log_base=args.log_base)
    rows = difficulties([_task_id(args.task)] if args.task else None, options)
    base = "e" if args.log_base == math.e else f"{args.log_base:g}"
    print(f"range={args.range} trim={args.trim} log_base={base}")
    print(f"{'task':<18} {'P':>5} {'NormMean':>9} {'NormBest':>9} {'0.1log(P+1)':>11} "
          f"{'D':>6}  level   filed")  # fmt: skip
    for r in rows:
        mark = "=" if r.agrees else "x"
        print(
            f"{r.task:<18} {r.participants:>5} {r.norm_mean:>9.3f} {r.norm_best:>9.3f} "
            f"{r.participant_term:>11.3f} {r.score:>6.3f}  {r.level:<7} {mark} {r.filed}"
        )
    print(agreement_line(rows))
    return 0


def cmd_aggregate(args: argparse.Namespace) -> int:
    from bench_adapters.csvio import read_jsonl
    from bench_adapters.tam.aggregate import aggregate
    from bench_adapters.tam.specs import TASK_IDS

    try:
        rows = read_jsonl(args.results)
        _print_json(aggregate(rows, list(TASK_IDS) if args.split else None))
    except (OSError, ValueError) as e:
        raise BadInput(f"{args.results}: {e}") from e
    return 0


def cmd_synthetic(args: argparse.Namespace) -> int:
    from bench_adapters.tam.specs import TASK_IDS
    from bench_adapters.tam.synthetic import make_prepared

    ids = [_task_id(r.strip()) for r in args.tasks.split(",")] if args.tasks else list(TASK_IDS)
    for task_id in ids:
        try:
            prepared = make_prepared(
                task_id, args.data_dir, seed=args.seed, overwrite=args.overwrite
            )
        except FileExistsError as e:
            raise BadInput(str(e)) from e
        print(f"tam/{task_id}: {prepared}")
    return 0


COMMANDS = {
    "rank": cmd_rank,
    "constraints": cmd_constraints,
    "difficulty": cmd_difficulty,
    "aggregate": cmd_aggregate,
    "synthetic": cmd_synthetic,
}


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(negative_scores_joined(sys.argv[1:] if argv is None else argv))
    try:
        return COMMANDS[args.command](args)
    except BadInput as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
