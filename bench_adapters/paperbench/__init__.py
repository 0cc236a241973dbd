"""PaperBench: replicate a paper into a submission repo, reproduce it, grade it on a rubric tree.

>>> task = resolve_task("paperbench/demo-james-stein", judge_model="o3-mini")
>>> task.validate(Path("submission"))          # the contract: a git repo, reproduce.sh, README
>>> task.grade(Path("runs/x/snapshots/submission.bundle"))   # reproduce, judge, monitor

Task side: ``adapter`` (splits, layout), ``task``, ``contract`` (reading git's files with
``gitobjects`` and ``gitpack``), ``snapshot``, ``reproduce``, ``replication``, ``monitor``,
``demo``. Grading side: ``rubric``, ``scoring``, ``judge``,
``files``, ``grading``, ``judge_eval``.
"""

from bench_adapters.paperbench.adapter import PaperBench
from bench_adapters.paperbench.contract import check_submission
from bench_adapters.paperbench.monitor import Violation, blacklist_violations
from bench_adapters.paperbench.reproduce import Reproduction, reproduce
from bench_adapters.paperbench.splits import split_ids
from bench_adapters.paperbench.task import PaperOptions, PaperTask

__all__ = [
    "PaperBench",
    "PaperOptions",
    "PaperTask",
    "Reproduction",
    "Violation",
    "blacklist_violations",
    "check_submission",
    "reproduce",
    "split_ids",
]
