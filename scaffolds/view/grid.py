"""One grid as one page, ``GRID_DIR/index.html``: a row per run linking to its page, then the
summary tables and plots that ``scaffolds.report``'s ``write_report`` wrote (``summary.md`` and
the images it names), then the grid's ``DISCLOSURE.md`` when the report wrote one. Drawing the page writes no data: ``python -m scaffolds.view GRID_DIR``
refreshes the report first, then draws.

The rows come from each run's own ``run.json`` under ``runs/``; the grid's ``results.jsonl``
adds the runs that crashed (some before writing any record). A run page that is missing or
older than its record is written on the way. Plots are embedded as ``data:`` images, so the
index fetches nothing; the run pages it links to sit beside it in the grid folder.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from scaffolds.disclosure import DISCLOSURE_MD
from scaffolds.report import SUMMARY_MD
from scaffolds.view.load import MONITOR_FILE, read_json
from scaffolds.view.page import PAGE_FILE, fill, medal, write_private, write_run_page

INDEX_FILE = "index.html"
RESULTS_FILE = "results.jsonl"
PLAN_FILE = "grid.json"
RUNS_DIR = "runs"
"""The grid folder's layout, as ``python -m scaffolds.ablate --help`` describes it."""
RECORD_FILES = ("run.json", "trajectory.jsonl", "journal.jsonl", MONITOR_FILE)
IMAGE = re.compile(r"!\[[^\]]*\]\(([\w.-]+\.png)\)")
"""A plot the markdown shows, a file beside it: ``![any-medal rate](any_medal.png)``."""


def is_grid(path: Path) -> bool:
    return (path / RESULTS_FILE).is_file() or (path / PLAN_FILE).is_file()


def latest_results(grid_dir: Path) -> dict[str, dict[str, Any]]:
    """Run name -> its latest line in results.jsonl (unreadable lines skipped)."""
    rows: dict[str, dict[str, Any]] = {}
    path = grid_dir / RESULTS_FILE
    if not path.is_file():
        return rows
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict) and row.get("run"):
            rows[str(row["run"])] = row
    return rows


def fresh_page(run_dir: Path) -> str | None:
    """Write the run's page unless it is newer than its record; the error, if that fails."""
    page = run_dir / PAGE_FILE
    stamps = [(run_dir / f).stat().st_mtime for f in RECORD_FILES if (run_dir / f).exists()]
    if page.exists() and page.stat().st_mtime >= max(stamps):
        return None
    try:
        write_run_page(run_dir)
    except Exception as exc:  # one bad record must not cost the index
        return f"{type(exc).__name__}: {exc}"
    return None


def run_row(name: str, run_dir: Path, result: dict[str, Any], index_dir: Path) -> dict[str, Any]:
    try:
        summary = read_json(run_dir / "run.json")
    except (OSError, ValueError):
        summary = {}
    grade = summary.get("grade") or {}
    grade = {**{k: v for k, v in result.items() if k.endswith("_medal") or k == "score"}, **grade}
    usage = summary.get("usage") or {}
    status = summary.get("status") or result.get("status") or "no record"
    if result.get("status") == "crashed":
        status = "crashed"
    problem = fresh_page(run_dir) if summary else None
    page = run_dir / PAGE_FILE
    href = None
    if page.exists():
        relative = Path(os.path.relpath(page.absolute(), index_dir))
        href = "/".join(quote(part) for part in relative.parts)
    scaffold = summary.get("scaffold", result.get("scaffold"))
    if result.get("policy"):  # a grid comparing AIDE's search policies
        scaffold = f"{scaffold}-{result['policy']}"
    if result.get("parallel_nodes"):  # ... or its nodes in flight
        scaffold = f"{scaffold}-n{result['parallel_nodes']}"
    return {
        "run": name,
        "scaffold": scaffold,
        "model": summary.get("model", result.get("model")),
        "task": summary.get("task", result.get("task")),
        "seed": summary.get("seed", result.get("seed")),
        "status": status,
        "score": grade.get("score"),
        "medal": medal(grade),
        "reward": grade.get("normalized_reward", result.get("normalized_reward")),
        "steps": summary.get("steps", result.get("steps")),
        "cost_usd": usage.get("cost_usd") if usage else result.get("cost_usd"),
        "flagged": monitor_flag(run_dir),
        "page": href,
        "problem": problem or result.get("error"),
    }


def monitor_flag(run_dir: Path) -> bool | None:
    try:
        return bool(read_json(run_dir / MONITOR_FILE).get("flagged"))
    except (OSError, ValueError, AttributeError):
        return None


def runs(grid_dir: Path, index_dir: Path) -> list[dict[str, Any]]:
    results = latest_results(grid_dir)
    folders = {p.parent.name: p.parent for p in sorted((grid_dir / RUNS_DIR).glob("*/run.json"))}
    for name, row in results.items():
        if name not in folders and row.get("run_dir"):
            folder = grid_dir / str(row["run_dir"])
            folders[name] = folder
    names = sorted(set(folders) | set(results))
    return [
        run_row(
            name, folders.get(name, grid_dir / RUNS_DIR / name), results.get(name, {}), index_dir
        )
        for name in names
    ]


def summary(grid_dir: Path) -> dict[str, Any]:
    """The report's markdown and the plots it names (as data URIs), or why there is none."""
    try:
        markdown = (grid_dir / SUMMARY_MD).read_text(encoding="utf-8")
    except OSError:
        problem = f"no summary: {SUMMARY_MD} is not written yet (python -m scaffolds.report)"
        return {"markdown": "", "plots": {}, "problem": problem}
    with contextlib.suppress(OSError):  # written by scaffolds.report --disclosure
        markdown += "\n" + (grid_dir / DISCLOSURE_MD).read_text(encoding="utf-8")
    plots = {}
    for name in dict.fromkeys(IMAGE.findall(markdown)):
        path = grid_dir / name
        if path.is_file() and not path.is_symlink():
            plots[name] = "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode()
    return {"markdown": markdown, "plots": plots, "problem": None}


def write_grid_index(grid_dir: Path, out: Path | None = None) -> Path:
    """Write the grid's index (default ``GRID_DIR/index.html``); returns its path."""
    from scaffolds.record import Redactor

    out = out or grid_dir / INDEX_FILE
    data = Redactor()(
        {"grid": str(grid_dir), "runs": runs(grid_dir, out.parent.absolute()), **summary(grid_dir)}
    )
    return write_private(out, fill("index.html", f"grid {grid_dir.name}", data, ("index.js",)))
