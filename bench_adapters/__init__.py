"""Benchmark adapters: every benchmark's tasks behind one Task contract, one CLI and one grader path.

>>> task = resolve_task("demo/tabular-binary")
>>> task.validate(path)        # (ok, message), never a score
>>> task.grade(path)           # upstream CompetitionReport keys + normalized_reward + rank pct
"""

from bench_adapters.errors import LeaderboardError, TaskNotPrepared, UnknownTask
from bench_adapters.leaderboard import Leaderboard, medal_positions
from bench_adapters.registry import benchmarks, list_tasks, resolve_task
from bench_adapters.report import REPORT_KEYS, SUMMARY_KEYS, aggregate_reports
from bench_adapters.task import CompetitionTask

__all__ = [
    "REPORT_KEYS",
    "SUMMARY_KEYS",
    "CompetitionTask",
    "Leaderboard",
    "LeaderboardError",
    "TaskNotPrepared",
    "UnknownTask",
    "aggregate_reports",
    "benchmarks",
    "list_tasks",
    "medal_positions",
    "resolve_task",
]
