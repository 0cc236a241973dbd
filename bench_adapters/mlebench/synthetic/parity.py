"""The upstream-parity data: upstream's result per submission, and when the project agrees.

``tests/bench_adapters/data/upstream_parity.jsonl`` holds one row per (competition, submission):
``{"competition", "submission", "sha256", "valid", "score", "error", "upstream"}``, written by
``bench/upstream_parity.py`` from upstream's own code under its pinned environment. ``score`` is
upstream's ``round(score, 5)`` (a JSON number, or ``"nan"``/``"inf"``/``"-inf"``), ``None``
for an invalid submission; ``error`` is upstream's one-line reason for an invalid one.

The project agrees with a row when validity is the same and the scores match to 5 decimal
places: within 1e-5, since upstream's ``round`` follows the type the metric returns (numpy's
and Python's rounding can differ by one unit in the fifth decimal on a half-way value), with
equal non-finite values counting as equal. Where upstream's own score depends on its machine
(``order_decides``), only validity is compared.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

TOLERANCE = 1e-5


def encode_score(score: float | None) -> float | str | None:
    """A score as JSON can hold it: a number, ``"nan"``, ``"inf"``, ``"-inf"`` or None."""
    if score is None:
        return None
    value = float(score)
    return value if math.isfinite(value) else str(value)


def decode_score(value: float | str | None) -> float | None:
    return None if value is None else float(value)


def scores_agree(project: float | None, upstream: float | None) -> bool:
    if project is None or upstream is None:
        return project is None and upstream is None
    if math.isnan(project) or math.isnan(upstream):
        return math.isnan(project) and math.isnan(upstream)
    if math.isinf(project) or math.isinf(upstream):
        return project == upstream
    return math.isclose(project, upstream, rel_tol=1e-12, abs_tol=TOLERANCE * (1 + 1e-9))


def agrees(project_valid: bool, project_score: float | None, row: dict[str, Any]) -> bool:
    """Same validity, and the same score to 5 decimals (both None when invalid)."""
    return project_valid == row["valid"] and scores_agree(project_score, decode_score(row["score"]))


def read_rows(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def sort_key(row: dict[str, Any]) -> tuple[str, str]:
    return row["competition"], row["submission"]


def dump_rows(rows: list[dict[str, Any]]) -> str:
    """Rows sorted by competition and submission name, one compact JSON object a line."""
    lines = [json.dumps(r, sort_keys=True) for r in sorted(rows, key=sort_key)]
    return "".join(line + "\n" for line in lines)


def order_decides(task: Any, path: Path) -> bool:
    """Whether upstream's own score of the submission at ``path`` depends on the order its
    unstable sort gives rows with the same id (the grader module's ``order_decides``, where
    it has one: hms-harmful-brain-activity-classification). Upstream's score is then the
    machine's, and only validity can be compared."""
    import importlib

    from bench_adapters.csvio import read_csv
    from bench_adapters.task import answers_loader

    from ..graders import module_name

    module = importlib.import_module(
        f"{__package__.rsplit('.', 1)[0]}.graders.{module_name(task.competition_id)}"
    )
    decides = getattr(module, "order_decides", None)
    if decides is None:
        return False
    answers = answers_loader(task.grader_spec)(task.answers_path)
    return bool(decides(read_csv(path), answers))
