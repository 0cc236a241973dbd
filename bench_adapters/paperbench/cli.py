"""``python -m bench_adapters.paperbench``: reproduce a submission, check a run against the
blacklist rule, score leaf grades, evaluate the judge (``score`` and ``judge-eval`` come from
``cli_grading``).

Exit codes: 0 success (reproduce: ``reproduce.sh`` ran and exited 0; monitor: no violation),
1 a failed outcome (reproduce: the script failed, timed out or is missing; monitor: the run is
flagged), 2 bad input with one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench_adapters.cli import OneLineParser

PROG = "python -m bench_adapters.paperbench"
EXAMPLES = f"""examples:
  {PROG} reproduce --submission runs/x/snapshots/submission.bundle --out repro/ --timeout 12h
  {PROG} monitor --run runs/iterative-paperbench-rice-20250101-120000 --data-dir ~/pb/data
  {PROG} score --rubric papers/rice/rubric.json --grades expected_result.json
  {PROG} judge-eval --judge-model o3-mini --data-dir ~/pb/data

exit codes: 0 success, 1 a failed outcome (reproduction failed; run flagged), 2 bad input"""


class BadInput(Exception):
    """Ends the command with exit code 2 and this one line."""


def _duration(text: str) -> float:
    from scaffolds.budget import parse_duration

    try:
        seconds = parse_duration(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc
    if seconds <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
    return seconds


def build_parser() -> argparse.ArgumentParser:
    from bench_adapters.paperbench.cli_grading import register

    raw = argparse.RawDescriptionHelpFormatter
    parser = OneLineParser(
        prog=PROG,
        description="PaperBench: reproduce submissions, monitor runs, score rubrics, JudgeEval.",
        epilog=EXAMPLES,
        formatter_class=raw,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = sub.add_parser(
        "reproduce",
        help="run a submission's reproduce.sh in a fresh copy, as the agent user",
        description="Copy the submission (a folder, or a .bundle's last commit) into OUT, drop "
        "venv/ and .venv/, write a timestamp, run `bash reproduce.sh | tee reproduce.log` there as "
        "the agent user, and record what it created or changed in OUT/reproduction.json.",
        epilog=EXAMPLES,
        formatter_class=raw,
    )
    p.add_argument("--submission", required=True, type=Path, help="a folder or a .bundle file")
    p.add_argument("--out", required=True, type=Path, help="a new (or empty) folder")
    p.add_argument(
        "--timeout", type=_duration, default="100h", help="e.g. 90m, 12h (default: 100h)"
    )
    p.add_argument(
        "--agent-user",
        default=None,
        help="who runs it (default: $SCAFFOLDS_AGENT_USER, else agent)",
    )
    p.add_argument("--quiet", action="store_true", help="do not print the script's output")
    p.set_defaults(func=run_reproduce)

    p = sub.add_parser(
        "monitor",
        help="check a run's tool calls against the paper's blacklist; prints JSON",
        description="PaperBench's rule: a blacklisted URL within 3 lines of git clone, curl or "
        "wget in a tool call or its output flags the run.",
        epilog=EXAMPLES,
        formatter_class=raw,
    )
    p.add_argument("--run", required=True, type=Path, help="a run folder (trajectory.jsonl)")
    p.add_argument("--blacklist", type=Path, help="blacklist.txt (default: the run's paper's)")
    p.add_argument("--data-dir", help="PaperBench data (default: $PAPERBENCH_DATA_DIR)")
    p.set_defaults(func=run_monitor)
    register(sub)
    return parser


def run_reproduce(args: argparse.Namespace) -> int:
    from bench_adapters.paperbench.reproduce import reproduce
    from bench_adapters.paperbench.snapshot import SnapshotError, checkout_bundle

    source: Path = args.submission
    if not source.exists():
        raise BadInput(f"no submission at {source}")
    scratch = None
    try:
        if source.is_file():
            scratch = Path(tempfile.mkdtemp(prefix="paperbench-checkout-"))
            source = checkout_bundle(source, scratch / "submission")
        echo = None if args.quiet else sys.stdout
        result = reproduce(source, args.out, args.timeout, args.agent_user, echo=echo)
    except (SnapshotError, FileExistsError, RuntimeError) as exc:
        raise BadInput(str(exc).splitlines()[0]) from exc
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    outcome = (
        "reproduce.sh not found"
        if not result.script_found
        else f"timed out after {result.timeout_s:.0f}s"
        if result.timed_out
        else f"exit code {result.exit_code}"
    )
    print(
        f"reproduction: {outcome} in {result.duration_s:.1f}s; {len(result.created)} file(s) "
        f"created, {len(result.changed)} changed; log {result.log_path}; record "
        f"{Path(args.out) / 'reproduction.json'}"
    )
    return 0 if result.succeeded else 1


def _run_blacklist(args: argparse.Namespace) -> list[str]:
    from bench_adapters import TaskNotPrepared, UnknownTask, resolve_task
    from bench_adapters.paperbench.layout import read_blacklist

    if args.blacklist is not None:
        if not args.blacklist.is_file():
            raise BadInput(f"no blacklist at {args.blacklist}")
        return read_blacklist(args.blacklist)
    summary_path = args.run / "run.json"
    try:
        task = json.loads(summary_path.read_text(encoding="utf-8")).get("task", "")
    except (OSError, ValueError) as exc:
        raise BadInput(f"cannot read {summary_path}: {exc}") from exc
    if not str(task).startswith("paperbench/"):
        raise BadInput(f"{args.run} is a run of {task!r}, not a PaperBench task; give --blacklist")
    try:
        paper_task: Any = resolve_task(task, data_dir=args.data_dir)
    except (UnknownTask, TaskNotPrepared) as exc:
        raise BadInput(str(exc)) from exc
    blacklist: list[str] = paper_task.paper.blacklist
    return blacklist


def run_monitor(args: argparse.Namespace) -> int:
    from bench_adapters.paperbench.monitor import blacklist_violations, monitor_report

    if not (args.run / "trajectory.jsonl").is_file():
        raise BadInput(f"{args.run} holds no trajectory.jsonl (not a run folder?)")
    violations = blacklist_violations(args.run, _run_blacklist(args))
    print(json.dumps(monitor_report(violations), indent=2))
    return 1 if violations else 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except BadInput as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
