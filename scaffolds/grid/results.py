"""``GRID_DIR/results.jsonl``: one row per finished (or crashed) run, appended, never rewritten.

The current row of a run is its latest line. A run whose run.json is final but whose latest line
is older or missing (the grid was killed between the two) gets a row rebuilt from its folder, so
a finished run is never lost.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from scaffolds.grid.plan import RunSpec
from scaffolds.grid.runstate import (
    ERROR_FILE,
    attempts,
    is_final,
    read_run_json,
    read_spec,
)
from scaffolds.record import JsonlLog

FORMAT_VERSION = 1
RESULTS_FILE = "results.jsonl"
RUNS_DIR = "runs"
CRASHED = "crashed"
INTERRUPTED = "interrupted"

GRADE_FIELDS = (
    "score",
    "any_medal",
    "gold_medal",
    "silver_medal",
    "bronze_medal",
    "above_median",
    "normalized_reward",
    "rank_pct",  # TAM-Bench: rank on the real leaderboard, a fraction (null when invalid)
    "constraint_pass",  # TAM-Bench: share of the special instructions the final code follows
    "judge_cost_usd",  # PaperBench: what grading the rubric cost (null when unknown or ungraded)
)


def _seconds_between(start: Any, end: Any) -> float | None:
    try:
        return (
            datetime.fromisoformat(str(end)) - datetime.fromisoformat(str(start))
        ).total_seconds()
    except (TypeError, ValueError):
        return None


def build_row(
    spec: RunSpec,
    run_dir: Path,
    grid_dir: Path,
    error: str | None = None,
    status: str | None = None,
) -> dict[str, Any]:
    """The results row of a run, from its run.json (grade, usage) and the grid's attempt log.

    ``error`` marks a crashed run: status ``crashed`` whatever run.json says; ``status``
    overrides run.json's otherwise.
    """
    summary = read_run_json(run_dir) or {}
    grade = summary.get("grade") or {}
    usage = summary.get("usage") or {}
    log = attempts(run_dir)
    walls = [a.get("wall_s") or 0.0 for a in log if a.get("event") == "end"]
    starts = sum(a.get("event") == "start" for a in log)
    wall = (
        round(sum(walls), 3)
        if walls
        else _seconds_between(summary.get("started_at"), summary.get("ended_at"))
    )
    prompt = int(usage.get("prompt_tokens") or 0)
    completion = int(usage.get("completion_tokens") or 0)
    return {
        "format_version": FORMAT_VERSION,
        "run": spec.name,
        "scaffold": spec.scaffold,
        "model": spec.model,
        "task": spec.task,
        "seed": spec.seed,
        "policy": spec.policy,
        "parallel_nodes": spec.parallel_nodes,
        "status": CRASHED if error is not None else status or summary.get("status"),
        "run_status": summary.get("status"),
        "made_submission": bool(grade.get("submission_exists")),
        "valid_submission": bool(grade.get("valid_submission")),
        **{k: grade.get(k) for k in GRADE_FIELDS},
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "reasoning_tokens": int(usage.get("reasoning_tokens") or 0),
        "tokens": prompt + completion,
        "cost_usd": usage.get("cost_usd"),
        "steps": summary.get("steps"),
        "wall_time_s": wall,
        "agent_time_s": summary.get("agent_time_s"),
        "attempts": starts,
        "node": (summary.get("placement") or {}).get("node"),
        "started_at": summary.get("started_at"),
        "ended_at": summary.get("ended_at"),
        "error": error,
        "run_dir": str(run_dir.relative_to(grid_dir))
        if run_dir.is_relative_to(grid_dir)
        else str(run_dir),
    }


def read_rows(path: Path) -> dict[str, dict[str, Any]]:
    """Run name -> latest row of a results file, read-only; a torn last line (a kill in the
    middle of a write, or a write in progress) is ignored."""
    rows: dict[str, dict[str, Any]] = {}
    if not path.is_file():
        return rows
    lines = path.read_text(encoding="utf-8").split("\n")
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            if lineno == len(lines):
                break
            raise ValueError(f"{path}:{lineno}: not a JSON line") from None
        if not isinstance(row, dict):
            raise ValueError(f"{path}:{lineno}: not a JSON object")
        try:
            name = str(row.get("run") or RunSpec.from_dict(row).name)
        except (KeyError, TypeError, ValueError):
            raise ValueError(
                f"{path}:{lineno}: a row needs scaffold, model, task and seed"
            ) from None
        rows[name] = row
    return rows


class Results:
    """The append-only results file of one grid, opened by its one writer (the grid)."""

    def __init__(self, grid_dir: Path):
        self.path = grid_dir / RESULTS_FILE
        self.log = JsonlLog(self.path)  # drops a line torn by a kill

    def append(self, row: dict[str, Any]) -> None:
        self.log.append(row)

    def latest(self) -> dict[str, dict[str, Any]]:
        return read_rows(self.path)


def stale(row: dict[str, Any] | None, run_dir: Path) -> bool:
    """True when a finished run's folder holds a result that ``row`` does not show."""
    summary = read_run_json(run_dir)
    if not is_final(summary) or (run_dir / ERROR_FILE).exists():
        return False
    assert summary is not None
    if row is None or row.get("status") == CRASHED:
        return True
    return bool(row.get("ended_at") != summary.get("ended_at"))


def current_rows(grid_dir: Path, results: Results | None = None) -> dict[str, dict[str, Any]]:
    """Run name -> current row: the latest line, or a row rebuilt from a finished run's folder
    when results.jsonl lags behind it (and appended, when the grid passes its ``results``)."""
    rows = results.latest() if results is not None else read_rows(grid_dir / RESULTS_FILE)
    runs = grid_dir / RUNS_DIR
    for run_dir in sorted(runs.iterdir()) if runs.is_dir() else []:
        spec = read_spec(run_dir)
        if spec is None or not stale(rows.get(spec.name), run_dir):
            continue
        row = build_row(spec, run_dir, grid_dir)
        rows[spec.name] = row
        if results is not None:
            results.append(row)
    return rows
