"""``python -m bench_adapters``: list, validate, grade and describe tasks of every benchmark."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any, NoReturn

from bench_adapters.csvio import read_jsonl
from bench_adapters.errors import TaskNotPrepared, UnknownTask
from bench_adapters.options import add_flags, from_args
from bench_adapters.registry import list_known_issues, list_tasks, resolve_task
from bench_adapters.report import aggregate_reports
from scaffolds.protocols import Task
from scaffolds.record import now_iso, write_json_atomic

EXAMPLES = """examples:
  python -m bench_adapters list --benchmark mlebench --split lite
  python -m bench_adapters list --benchmark mlebench --known-issues
  python -m bench_adapters validate --task demo/tabular-binary --submission submission.csv
  python -m bench_adapters grade --task mlebench/spaceship-titanic --submission submission.csv
  python -m bench_adapters grade --task tam/text/medium --submission run/submission/submission.csv \\
      --judge-model gpt-4o
  python -m bench_adapters grade --task paperbench/rice --submission run/snapshots/submission.bundle \\
      --judge-model o3-mini --data-dir ~/paperbench/data
  python -m bench_adapters grade-jsonl --submissions runs.jsonl --out reports/
  python -m bench_adapters instructions --task demo/digits-image --time-limit 2h --max-steps 50

exit codes: 0 success (for validate: valid), 1 invalid submission (validate), or the judge
            model failed (grade: the report has judge_error; rerun to finish), 2 bad input:
            unknown task, unprepared data, unreadable file, bad arguments"""


class OneLineParser(argparse.ArgumentParser):
    """Bad arguments exit 2 with a single line on stderr."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {message} (see --help)\n")


class BadInput(Exception):
    """Anything that should end the command with exit code 2 and one line."""


def _resolve(ref: str, args: argparse.Namespace) -> Task:
    try:
        return resolve_task(ref, **from_args(args))
    except (UnknownTask, TaskNotPrepared) as e:
        raise BadInput(str(e)) from e


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="python -m bench_adapters",
        description="Benchmark tasks: list them, check and grade submissions, print instructions.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser(
        "list",
        help="print task references, one per line",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--benchmark", help="only this benchmark (mlebench, demo, paperbench, ...)")
    p.add_argument(
        "--split",
        help="only this split (mlebench: all, lite, medium, high, dev, cpu_only, or_initial; "
        "paperbench: all, dev, lite, human, debug, testing, demo)",
    )
    p.add_argument("--graded", action="store_true", help="only tasks this package can grade")
    p.add_argument(
        "--known-issues",
        action="store_true",
        help="instead, each known problem of the listed tasks (leaks, broken data...): "
        "'REFERENCE: [kind] problem (source)', one a line",
    )

    for name, text in (
        ("validate", "check a submission's format (never a score)"),
        ("grade", "grade a submission; prints the report as JSON"),
    ):
        p = sub.add_parser(
            name, help=text, epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter
        )
        p.add_argument(
            "--task", required=True, help="e.g. mlebench/spaceship-titanic, demo/tabular-binary"
        )
        p.add_argument(
            "--submission",
            required=True,
            type=Path,
            help="the submission CSV (PaperBench: a repository folder, a .bundle or a run folder)",
        )
        add_flags(p, "data", *(("judge", "paper") if name == "grade" else ()))
        if name == "grade":
            p.add_argument(
                "--run-dir",
                type=Path,
                help="the run (ended with --grade-later) this grades: its grade.json and "
                "run.json get the report, and run.json's integrity block the time grading began",
            )

    p = sub.add_parser(
        "grade-jsonl",
        help="grade upstream-style {competition_id, submission_path} "
        "lines into <out>/<timestamp>_grading_report.json",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--submissions", required=True, type=Path, help="the JSONL file")
    p.add_argument("--out", required=True, type=Path, help="folder for the report")
    add_flags(p, "data", "judge")

    p = sub.add_parser(
        "instructions",
        help="print the text an agent is given",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--task", required=True)
    p.add_argument("--hardware", default="a CPU", help='e.g. "a CPU", "1 NVIDIA H100"')
    p.add_argument("--time-limit", default="24h", help="e.g. 90m, 24h (default: 24h)")
    p.add_argument("--max-steps", type=int, default=None, help="default: no step limit")
    add_flags(p, "data", "paper", "instructions")
    return parser


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2))


def cmd_list(args: argparse.Namespace) -> int:
    try:
        if args.known_issues:
            issues = list_known_issues(args.benchmark, args.split, graded_only=args.graded)
            refs = [f"{ref}: {line}" for ref, line in issues]
        else:
            refs = list_tasks(args.benchmark, args.split, graded_only=args.graded)
    except (UnknownTask, ValueError) as e:
        raise BadInput(str(e)) from e
    if refs:
        print("\n".join(refs))
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    ok, message = _resolve(args.task, args).validate(args.submission)
    _print_json({"valid": ok, "message": message})
    return 0 if ok else 1


def cmd_grade(args: argparse.Namespace) -> int:
    started = now_iso()  # no private file of the task is read before this
    report = _resolve(args.task, args).grade(args.submission)
    if args.run_dir is not None:
        record_grade(args.run_dir, report, started)
    _print_json(report)
    if report.get("judge_error"):  # an outage is no grade: say so, and let a rerun finish it
        print(f"error: {report['judge_error']}", file=sys.stderr)
        return 1
    return 0


def record_grade(run_dir: Path, report: dict[str, Any], started: str) -> None:
    """Put a later grade into its run's record: grade.json, and run.json's grade and
    ``integrity.grading_started_at`` (when this grading process began)."""
    path = run_dir / "run.json"
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise BadInput(f"--run-dir {run_dir}: cannot read its run.json ({e})") from e
    integrity = summary.get("integrity")
    if isinstance(integrity, dict):
        integrity["grading_started_at"] = started
    summary["grade"] = report
    write_json_atomic(run_dir / "grade.json", report)
    write_json_atomic(path, summary)


def cmd_grade_jsonl(args: argparse.Namespace) -> int:
    try:
        lines = read_jsonl(args.submissions)
    except (OSError, ValueError) as e:
        raise BadInput(f"cannot read {args.submissions}: {e}") from e
    tasks: dict[str, Task] = {}
    reports = []
    for n, line in enumerate(lines, start=1):
        if not isinstance(line, dict) or not {"competition_id", "submission_path"} <= line.keys():
            raise BadInput(f"{args.submissions}: entry {n} lacks competition_id/submission_path")
        cid = str(line["competition_id"])
        ref = cid if "/" in cid else f"mlebench/{cid}"
        if ref not in tasks:
            tasks[ref] = _resolve(ref, args)
        reports.append(tasks[ref].grade(Path(str(line["submission_path"]))))
    summary = aggregate_reports(reports)
    path = args.out / f"{time.strftime('%Y-%m-%dT%H-%M-%S-%Z', time.gmtime())}_grading_report.json"
    try:
        args.out.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(summary, indent=2), encoding="utf-8")
    except OSError as e:
        raise BadInput(f"cannot write {path}: {e}") from e
    _print_json(
        {
            **{k: v for k, v in summary.items() if k != "competition_reports"},
            "report_path": str(path),
        }
    )
    return 0


def cmd_instructions(args: argparse.Namespace) -> int:
    from scaffolds.budget import parse_duration

    try:
        seconds = parse_duration(args.time_limit)
    except ValueError as e:
        raise BadInput(str(e)) from e
    task = _resolve(args.task, args)
    print(task.instructions(hardware=args.hardware, time_limit_s=seconds, max_steps=args.max_steps))
    return 0


COMMANDS = {
    "list": cmd_list,
    "validate": cmd_validate,
    "grade": cmd_grade,
    "grade-jsonl": cmd_grade_jsonl,
    "instructions": cmd_instructions,
}


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s: %(message)s")
    try:
        return COMMANDS[args.command](args)
    except BadInput as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `list | head`: the reader left, nothing to report
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
