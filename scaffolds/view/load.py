"""Reading one run folder for its page: only the run record, every value redacted.

The page is built from ``run.json``, ``trajectory.jsonl``, ``grade.json`` (when run.json has no
grade yet), AIDE's ``journal.jsonl`` and, when a monitor has looked at the run, ``monitor.json``.
Nothing else in the folder (workspace, submission, code) is read. A run that is still going or
was killed reads the same way; a torn or unreadable line is counted and skipped, and keeps its
place, so event numbers stay the 0-based line numbers of ``trajectory.jsonl``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scaffolds.record import Redactor

MONITOR_FILE = "monitor.json"
JOURNAL_FILE = "journal.jsonl"


class NotARun(Exception):
    """The folder holds no run record (no ``run.json``)."""


@dataclass
class RunFiles:
    """What the page is made from."""

    dir: Path
    summary: dict[str, Any]
    events: list[tuple[int, dict[str, Any]]]
    """(line number in trajectory.jsonl, event), in file order."""
    unreadable_lines: int = 0
    tree: dict[str, Any] | None = None
    """AIDE only: ``aide_tree.tree_html.tree_data`` of the journal."""
    monitor: dict[str, Any] | None = None
    problems: list[str] = field(default_factory=list)
    """Parts of the record that could not be read (shown on the page, never fatal)."""


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def read_events(path: Path) -> tuple[list[tuple[int, dict[str, Any]]], int]:
    """Every readable event with its line number, and how many lines could not be read."""
    events: list[tuple[int, dict[str, Any]]] = []
    bad = 0
    if not path.is_file():
        return events, bad
    with path.open(encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f):
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                bad += bool(line.strip())
                continue
            if isinstance(event, dict):
                events.append((number, event))
            else:
                bad += 1
    return events, bad


def read_tree(run_dir: Path, task: str) -> dict[str, Any] | None:
    path = run_dir / JOURNAL_FILE
    if not path.is_file():
        return None
    from aide_tree.journal import KEYED_VERSION, Journal, Node
    from aide_tree.tree_html import tree_data

    lines, _ = read_events(path)  # read-only: Journal.open would repair a torn tail
    if not lines:
        return None
    header, *nodes = (event for _, event in lines)
    keyed = header.get("format_version") == KEYED_VERSION  # several nodes in flight
    journal = Journal(bool(header.get("lower_is_better")), keyed=keyed)
    for record in nodes:
        journal.add(Node.from_record(record))
    return tree_data(journal, task)


def load_run(run_dir: Path, redact: Redactor | None = None) -> RunFiles:
    """The run record in ``run_dir``, redacted; ``NotARun`` when there is none."""
    redact = redact or Redactor()
    summary_path = run_dir / "run.json"
    if not summary_path.is_file():
        raise NotARun(f"{run_dir} is not a run folder (no run.json)")
    try:
        summary = read_json(summary_path)
    except (OSError, ValueError) as exc:
        raise NotARun(f"{summary_path}: unreadable ({exc})") from None
    if not isinstance(summary, dict):
        raise NotARun(f"{summary_path}: not a JSON object")
    files = RunFiles(run_dir, summary, [])
    files.events, files.unreadable_lines = read_events(run_dir / "trajectory.jsonl")
    if files.unreadable_lines:
        files.problems.append(f"{files.unreadable_lines} unreadable line(s) of trajectory.jsonl")
    grade_path = run_dir / "grade.json"
    if summary.get("grade") is None and grade_path.is_file():
        try:
            summary["grade"] = read_json(grade_path)
        except (OSError, ValueError):
            files.problems.append("grade.json is unreadable")
    try:
        files.tree = read_tree(run_dir, str(summary.get("task") or run_dir.name))
    except Exception as exc:  # a journal of another version must not cost the page
        files.problems.append(f"journal.jsonl: {type(exc).__name__}: {exc}")
    monitor_path = run_dir / MONITOR_FILE
    if monitor_path.is_file():
        try:
            files.monitor = read_json(monitor_path)
        except (OSError, ValueError):
            files.problems.append(f"{MONITOR_FILE} is unreadable")
    files.summary = redact(files.summary)
    files.events = [(number, redact(event)) for number, event in files.events]
    files.tree = redact(files.tree)
    files.monitor = redact(files.monitor)
    return files
