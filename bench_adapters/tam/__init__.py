"""TAM-Bench Lite: 18 tasks (6 modalities x 3 difficulties), graders, leaderboard ranks, the
constraint judge, the difficulty model and the paper's aggregates.

>>> task = resolve_task("tam/tabular/easy", data_dir="~/tam-data")
>>> task.grade(Path("run/submission/submission.csv"))   # score, rank_pct, constraint_pass...
>>> rank_score("tabular/easy", 2.5)                      # Rank(rank=..., participants=1485, ...)
"""

from bench_adapters.tam.adapter import Tam, data_root
from bench_adapters.tam.rank import Rank, board, rank_score
from bench_adapters.tam.specs import TASK_IDS, TASKS, TaskInfo, constraints_of, load_spec
from bench_adapters.tam.task import CODE_FILE, JudgeOptions, TamTask

__all__ = [
    "CODE_FILE",
    "TASKS",
    "TASK_IDS",
    "JudgeOptions",
    "Rank",
    "Tam",
    "TamTask",
    "TaskInfo",
    "board",
    "constraints_of",
    "data_root",
    "load_spec",
    "rank_score",
]
