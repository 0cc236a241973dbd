"""``python -m baselines``: run a task's reference solver, or sanity-check graders with them."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

from baselines.check import CheckOptions, CheckReport, TaskCheck, check_tasks
from baselines.kit import SetupError
from baselines.registry import BASELINES, has_baseline, task_ref
from baselines.runner import run_baseline
from bench_adapters import TaskNotPrepared, UnknownTask, list_tasks, resolve_task
from bench_adapters.cli import BadInput, OneLineParser
from bench_adapters.options import add_flags, from_args

EXAMPLES = """examples:
  python -m baselines run --task mlebench/spaceship-titanic --data-dir ~/mle-data
  python -m baselines run --task demo/tabular-binary --out runs/tb --smoke
  python -m baselines check --split cpu_only --data-dir ~/mle-data --mlebench-dir ~/mle-bench
  python -m baselines check --tasks demo/tabular-binary,mlebench/spaceship-titanic --smoke
  python -m baselines run --task mlebench/aerial-cactus-identification --pretrained none --device cpu --smoke
  python -m baselines check --split tam_lite --data-dir ~/tam-data

exit codes: 0 success (check: no expectation failed and at least one was checked),
            1 run: the submission was graded invalid; check: an expectation failed, or
              nothing could be checked (every task skipped),
            2 bad input: unknown task, no baseline, unprepared data (run), bad arguments,
              --device cuda without a GPU or --pretrained weights that cannot be loaded"""

SPLITS = ("demo", "cpu_only", "lite", "all", "medium", "high", "dev", "tam_lite")
"""``check --split`` values: ``demo`` is every demo task, ``tam_lite`` the 18 TAM-Bench Lite
tasks, the others are MLE-bench splits."""


def positive_seconds(text: str) -> float:
    from scaffolds.budget import parse_duration

    try:
        seconds = parse_duration(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from e
    if seconds <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
    return seconds


def positive_int(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer: {text!r}")
    return int(text)


def _common(parser: argparse.ArgumentParser) -> None:
    add_flags(parser, "data")
    parser.add_argument(
        "--smoke", action="store_true", help="baselines train on a small sample (fast; for tests)"
    )
    parser.add_argument(
        "--time-budget",
        type=positive_seconds,
        help="each baseline's wall-clock budget, e.g. 600, 10m (default: the script's own)",
    )
    parser.add_argument(
        "--threads", type=positive_int, help="worker threads (default: the script's own)"
    )
    parser.add_argument(
        "--device",
        choices=("auto", "cuda", "cpu"),
        help="where network baselines train (default: auto, the GPU when there is one)",
    )
    parser.add_argument(
        "--pretrained",
        help="network baselines' starting weights: none (random, offline), a hub id or a "
        "local folder (default: each script's hub id, via the hub or HF_HOME's cache)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="python -m baselines",
        description="Reference solvers for MLE-bench's CPU-only and Lite competitions and the "
        "demo tasks, and a sanity check of every grader that uses them.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser(
        "run",
        help="train a task's baseline; write submission.csv and grade.json",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--task", required=True, help=f"one of: {', '.join(BASELINES)}")
    p.add_argument(
        "--out", type=Path, help="output folder (default: runs/baselines/<benchmark>-<id>)"
    )
    _common(p)

    p = sub.add_parser(
        "check",
        help="grade the answers, the sample, the baseline and corrupted copies of each task",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "--split", choices=SPLITS, help="demo, tam_lite (TAM-Bench Lite), or an MLE-bench split"
    )
    which.add_argument("--tasks", help="comma-separated task references")
    p.add_argument(
        "--out", type=Path, default=Path("runs/baselines/check"), help="default: %(default)s"
    )
    p.add_argument(
        "--no-baselines",
        dest="baselines",
        action="store_false",
        help="check the graders alone (answers, sample, corrupted copies); train no baseline",
    )
    _common(p)
    return parser


def _task_options(args: argparse.Namespace) -> dict[str, Any]:
    return {k: v for k, v in from_args(args).items() if v is not None}


def cmd_run(args: argparse.Namespace) -> int:
    ref = task_ref(args.task)
    if not has_baseline(ref):
        raise BadInput(f"no baseline for {args.task!r} (baselines: {', '.join(BASELINES)})")
    try:
        task = resolve_task(ref, **_task_options(args))
    except (UnknownTask, TaskNotPrepared) as e:
        raise BadInput(str(e)) from e
    out = args.out or Path("runs/baselines") / ref.replace("/", "-")
    try:
        run = run_baseline(
            task,
            out,
            smoke=args.smoke,
            time_budget_s=args.time_budget,
            threads=args.threads,
            device=args.device,
            pretrained=args.pretrained,
        )
    except SetupError as e:  # --device cuda without a GPU, weights that cannot be loaded
        raise BadInput(f"{task.id}: {e}") from e
    report = run.grade
    if "graded" in report:  # a judge-graded task (PaperBench): no medals, maybe no judge
        print(f"{task.id}: val {run.metric} {run.val_score:.5f} | {report.get('contract')}")
        print(f"wrote {run.submission_path} and {run.grade_path}")
        return 0 if report["valid_submission"] else 1
    if "rank_pct" in report:  # TAM-Bench: a rank on the real leaderboard, no medals
        place = f"rank {report['rank']}/{report['participants']}" if report["rank"] else "no rank"
        print(f"{task.id}: val {run.metric} {run.val_score:.5f} | test score {report['score']} "
              f"(valid: {report['valid_submission']}, {place}) | {run.seconds:.1f}s")  # fmt: skip
        print(f"wrote {run.submission_path} and {run.grade_path}")
        return 0 if report["valid_submission"] else 1
    medal = "unknown (no leaderboard)" if report["above_median"] is None else report["above_median"]
    print(
        f"{task.id}: val {run.metric} {run.val_score:.5f} | test score {report['score']} "
        f"(valid: {report['valid_submission']}, above median: {medal}) | {run.seconds:.1f}s"
    )
    print(f"wrote {run.submission_path} and {run.grade_path}")
    return 0 if report["valid_submission"] else 1


def selected_tasks(args: argparse.Namespace) -> list[str]:
    if args.split == "demo":
        return list_tasks("demo")
    if args.split == "tam_lite":
        return list_tasks("tam", "lite")
    if args.split:
        return list_tasks("mlebench", args.split)
    refs = [task_ref(r.strip()) for r in args.tasks.split(",") if r.strip()]
    if not refs:
        raise BadInput("--tasks names no task")
    known = set(list_tasks())
    unknown = [r for r in refs if r not in known]
    if unknown:
        raise BadInput(f"unknown task(s): {', '.join(unknown)} (see python -m bench_adapters list)")
    return list(dict.fromkeys(refs))


STYLE = {"pass": "green", "fail": "bold red", "skip": "yellow"}


def render(report: CheckReport) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="grader sanity check", show_lines=False)
    table.add_column("task", no_wrap=True)
    for name in ("submission", "expectation", "result"):
        table.add_column(name, no_wrap=True)
    table.add_column("evidence", overflow="fold", ratio=1)
    for task in report.tasks:
        if task.status == "skipped":
            table.add_row(task.task, "-", "-", "[yellow]SKIP[/]", f"task skipped: {task.reason}")
            continue
        for i, o in enumerate(task.outcomes):
            result = f"[{STYLE[o.status]}]{o.status.upper()}[/]"
            table.add_row(
                task.task if i == 0 else "", o.submission, o.expectation, result, o.evidence
            )
    Console(width=max(Console().width, 160)).print(table)


def announce(result: TaskCheck) -> None:
    if result.status == "skipped":
        print(f"{result.task}: skipped ({result.reason})", flush=True)
        return
    counts = {s: sum(o.status == s for o in result.outcomes) for s in ("pass", "fail", "skip")}
    print(
        f"{result.task}: {counts['pass']} passed, {counts['fail']} failed, "
        f"{counts['skip']} skipped ({result.seconds:.1f}s)",
        flush=True,
    )


def cmd_check(args: argparse.Namespace) -> int:
    refs = selected_tasks(args)
    # The corrupted submissions make graders log errors on purpose; the table reports them.
    logging.getLogger("bench_adapters").setLevel(logging.CRITICAL)
    options = CheckOptions(
        out_dir=args.out,
        task_options=_task_options(args),
        smoke=args.smoke,
        time_budget_s=args.time_budget,
        threads=args.threads,
        device=args.device,
        pretrained=args.pretrained,
        baselines=args.baselines,
    )
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BadInput(f"cannot create {args.out}: {e}") from e
    print(f"checking {len(refs)} task(s); files under {args.out}", flush=True)
    report = check_tasks(refs, options, on_task=announce)
    path = args.out / "check.json"
    path.write_text(json.dumps(report.to_dict(), indent=2), encoding="utf-8")
    render(report)
    summary = report.to_dict()["summary"]
    print(
        f"check: {summary['passed']} passed, {summary['failed']} failed, "
        f"{summary['skipped']} skipped; {summary['tasks_checked']} task(s) checked, "
        f"{summary['tasks_skipped']} skipped; report: {path}"
    )
    for line in report.failures:
        print(f"FAIL {line}", file=sys.stderr)
    if not report.ok and not report.failures:
        print("FAIL nothing was checked: every task or expectation was skipped", file=sys.stderr)
    return 0 if report.ok else 1


COMMANDS = {"run": cmd_run, "check": cmd_check}


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.ERROR, format="%(levelname)s: %(message)s")
    try:
        return COMMANDS[args.command](args)
    except BadInput as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
