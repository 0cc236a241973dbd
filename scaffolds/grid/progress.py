"""The grid's live progress: runs done/total, running, failed, medals, tokens and cost so far,
and the machines the runs are on: each node's state and runs.

On a terminal it is a live panel (rich) listing the nodes and the running runs; elsewhere (logs,
CI) it is one line per finished run, and one when a node joins or dies.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Any, TextIO

from scaffolds.exit_codes import FAILED_STATUSES
from scaffolds.grid.job import Job
from scaffolds.grid.results import CRASHED
from scaffolds.grid.runstate import UNFINISHED, read_run_json
from scaffolds.timefmt import format_hms

FAILED = FAILED_STATUSES | {CRASHED}


@dataclass
class NodeState:
    """One machine of the grid, as a backend sees it now."""

    name: str
    alive: bool
    running: int
    done: int
    """Runs that ended there since the grid started."""
    gpus: float

    def line(self) -> str:
        state = "alive" if self.alive else "DEAD"
        return (
            f"  node {self.name}: {state}, {self.running} running, {self.done} done, "
            f"{self.gpus:g} GPU"
        )


@dataclass
class Tally:
    """Counters over the current rows of a grid's planned runs."""

    done: int = 0
    failed: int = 0
    medals: int = 0
    gold: int = 0
    tokens: int = 0
    cost_usd: float = 0.0
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)

    def add(self, row: dict[str, Any]) -> None:
        old = self.rows.get(str(row["run"]))
        if old is not None:
            self._count(old, -1)
        self.rows[str(row["run"])] = row
        self._count(row, +1)

    def _count(self, row: dict[str, Any], sign: int) -> None:
        self.done += sign * (row.get("status") not in UNFINISHED)
        self.failed += sign * (row.get("status") in FAILED)
        self.medals += sign * bool(row.get("any_medal"))
        self.gold += sign * bool(row.get("gold_medal"))
        self.tokens += sign * int(row.get("tokens") or 0)
        self.cost_usd += sign * float(row.get("cost_usd") or 0.0)


def live_usage(jobs: list[Job], rows: dict[str, dict[str, Any]]) -> tuple[int, float]:
    """Tokens and cost the running runs have spent since their last row (a resumed run's
    record holds its earlier attempts too). Ray runs count as their records stream back."""
    tokens, cost = 0, 0.0
    for job in jobs:
        usage = (read_run_json(job.run_dir) or {}).get("usage") or {}
        row = rows.get(job.spec.name) or {}
        spent = int(usage.get("prompt_tokens") or 0) + int(usage.get("completion_tokens") or 0)
        tokens += max(0, spent - int(row.get("tokens") or 0))
        cost += max(0.0, float(usage.get("cost_usd") or 0.0) - float(row.get("cost_usd") or 0.0))
    return tokens, cost


class Progress:
    def __init__(self, total: int, stream: TextIO | None = None):
        self.total = total
        self.tally = Tally()
        self.stream = stream or sys.stderr
        self.started = time.monotonic()
        self.live: Any = None
        """A rich Live panel, started on the first refresh when the stream is a terminal."""
        self.shown_done = -1
        self.alive: dict[str, bool] = {}
        """Each node's state when last seen, to tell when one joins or dies."""

    def line(self, running: list[Job]) -> str:
        t = self.tally
        tokens, cost = live_usage(running, t.rows)
        return (
            f"grid: {t.done}/{self.total} done, {len(running)} running, {t.failed} failed, "
            f"{t.medals} medals ({t.gold} gold), {t.tokens + tokens:,} tokens, "
            f"${t.cost_usd + cost:.2f}, {format_hms(time.monotonic() - self.started)}"
        )

    def finished(self, row: dict[str, Any], running: list[Job]) -> None:
        self.tally.add(row)
        medal = next((m for m in ("gold", "silver", "bronze") if row.get(f"{m}_medal")), "none")
        wall = row.get("wall_time_s")
        text = (
            f"{row['run']}: {row['status']}, valid={row.get('valid_submission')}, medal={medal}, "
            f"{row.get('tokens') or 0:,} tokens, {wall if wall is not None else '?'}s"
        )
        self.print(text)
        if not self.stream.isatty():
            self.print(self.line(running))
            self.shown_done = self.tally.done

    def watch(self, nodes: list[NodeState]) -> None:
        """Say so when a node joins or dies (after the first look)."""
        first = not self.alive
        for node in nodes:
            was = self.alive.get(node.name)
            if not first and was != node.alive and (was is not None or node.alive):
                news = "is back" if was is False else "joined" if node.alive else "is dead"
                self.print(f"grid: node {node.name} {news}")
            self.alive[node.name] = node.alive

    def refresh(self, running: list[Job], nodes: list[NodeState] | None = None) -> None:
        self.watch(nodes or [])
        if not self.stream.isatty():
            return
        from rich.table import Table

        if self.live is None:
            from rich.console import Console
            from rich.live import Live

            self.live = Live(console=Console(file=self.stream), auto_refresh=False, transient=True)
            self.live.start()

        table = Table.grid(padding=(0, 2))
        table.add_row(self.line(running))
        for node in nodes if nodes and len(nodes) > 1 else []:
            table.add_row(node.line())
        for job in running[:12]:
            summary = read_run_json(job.run_dir) or {}
            where = (summary.get("placement") or {}).get("node")
            notes = []
            if summary.get("steps"):
                notes.append(f"step {summary['steps']}")
            if where and nodes:
                notes.append(f"on {where}")
            table.add_row(
                f"  running {job.spec.name}" + (f" ({', '.join(notes)})" if notes else "")
            )
        if len(running) > 12:
            table.add_row(f"  ... and {len(running) - 12} more")
        self.live.update(table, refresh=True)

    def print(self, text: str) -> None:
        if self.live is not None:
            self.live.console.print(text, markup=False, highlight=False)
        else:
            print(text, file=self.stream, flush=True)

    def close(self, running: list[Job]) -> None:
        was_live = self.live is not None
        if self.live is not None:
            self.refresh(running)
            self.live.stop()
            self.live = None
        if was_live or self.tally.done != self.shown_done:
            self.print(self.line(running))
