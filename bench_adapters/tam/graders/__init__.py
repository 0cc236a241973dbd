"""One grader per TAM Lite task: ``grade(submission_path, answers_path) -> score``.

A grader raises :class:`Invalid` (MLE-bench's ``InvalidSubmissionError``) with a one-line
reason for a submission that does not have the answers' structure; anything else it raises is a
fault of the answers or of this package. Modules are imported on first use.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from bench_adapters.mlebench.graders import InvalidSubmissionError as Invalid

Grader = Callable[[Path, Path], float]

_MODULES = {
    "shared": (
        "audio/easy", "audio/medium", "image/easy", "image/medium", "multimodal/easy",
        "tabular/easy", "tabular/hard", "text/easy", "text/medium",
    ),
    "tables": ("audio/hard", "tabular/medium", "multimodal/hard", "text/hard", "image/hard"),
    "graph": ("graph/easy", "graph/medium", "graph/hard"),
    "sessions": ("multimodal/medium",),
}  # fmt: skip

__all__ = ["Grader", "Invalid", "get_grader"]


def get_grader(task_id: str) -> Grader:
    """The grader of ``task_id`` (``<modality>/<difficulty>``); ``KeyError`` if none."""
    for module, ids in _MODULES.items():
        if task_id in ids:
            grader: Grader = importlib.import_module(f"{__name__}.{module}").GRADERS[task_id]
            return grader
    raise KeyError(task_id)
