"""Run monitors: rule-breaking checks on a run record, plagiarism against reference notebooks,
and a model reviewing the log; ``python -m scaffolds.monitor``. See ``monitor`` for the report
(``RUN_DIR/monitor.json``), ``access``, ``search`` and ``rules`` for the static checks,
``plagiarism`` and ``fingerprint`` for how similarity is computed, and ``review`` for the log
reviewer."""

from scaffolds.monitor.config import MonitorConfig, PlagiarismConfig
from scaffolds.monitor.grid import (
    grid_monitor_config,
    monitor_grid,
    monitor_section,
    redraw_pages,
)
from scaffolds.monitor.monitor import MONITOR_FILE, monitor_run, write_monitor
from scaffolds.monitor.plagiarism import compare, similarity

__all__ = [
    "MONITOR_FILE",
    "MonitorConfig",
    "PlagiarismConfig",
    "compare",
    "grid_monitor_config",
    "monitor_grid",
    "monitor_run",
    "monitor_section",
    "redraw_pages",
    "similarity",
    "write_monitor",
]
