"""Grade files with upstream MLE-bench's own code, in upstream's own interpreter.

    UPSTREAM_PYTHON bench/upstream_driver.py JOB.json RESULTS.jsonl

``bench/upstream_parity.py`` runs this script with the interpreter of upstream's pinned grading
environment; it imports nothing of this project (only the standard library and, from the
checkout named in the job, upstream's ``mlebench`` package with its dependencies). The job is
``{"upstream_src": DIR, "data_dir": DIR, "competition": ID, "submissions": [{"name", "path"}]}``.

Each submission is graded as upstream's ``grade_csv`` does: the file must exist with a ``.csv``
suffix, it is read with upstream's ``read_csv``, the answers are loaded afresh with upstream's
``load_answers`` (a grade function may change them in place), and the competition's ``Grader``
(named in its ``config.yaml``) gives ``round(score, 5)``, or ``None`` for any exception. Where
``read_csv`` itself raises (``grade_csv`` would crash there), the result is "invalid" with the
error named. The first line of RESULTS is the competition's dataset paths from its config;
then one line per submission: ``{"name", "valid", "score", "error"}``, a non-finite score as
the string ``"nan"``, ``"inf"`` or ``"-inf"``.
"""

from __future__ import annotations

import json
import logging
import math
import sys
import warnings
from pathlib import Path
from typing import Any


class _Messages(logging.Handler):
    """Keeps the last message logged (upstream's Grader logs why a grade failed)."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.last: str | None = None

    def emit(self, record: logging.LogRecord) -> None:
        self.last = record.getMessage()


def _encode(score: Any) -> float | str | None:
    if score is None:
        return None
    value = float(score)
    return value if math.isfinite(value) else str(value)


def _one_line(text: str | None) -> str | None:
    if text is None:
        return None
    text = text.split(". Check /")[0]  # drop the grade function's path and line
    return " ".join(text.split())[:200]


def main(job_path: str, results_path: str) -> int:
    job = json.loads(Path(job_path).read_text(encoding="utf-8"))
    messages = _Messages()
    logging.root.addHandler(messages)  # before upstream's basicConfig, which then adds nothing
    logging.root.setLevel(logging.WARNING)
    warnings.simplefilter("ignore")
    sys.path.insert(0, job["upstream_src"])
    import yaml  # upstream's dependency, in its environment
    from mlebench.grade_helpers import Grader
    from mlebench.utils import load_answers, read_csv

    competition = job["competition"]
    config_path = Path(job["upstream_src"]) / "mlebench" / "competitions" / competition
    config = yaml.safe_load((config_path / "config.yaml").read_text(encoding="utf-8"))
    dataset = config["dataset"]
    answers_path = Path(job["data_dir"]) / dataset["answers"]
    grader = Grader.from_dict(config["grader"])

    with open(results_path, "w", encoding="utf-8") as out:
        paths = {k: dataset.get(k) for k in ("answers", "sample_submission", "gold_submission")}
        out.write(json.dumps({"config": paths}) + "\n")
        for item in job["submissions"]:
            path = Path(item["path"])
            messages.last = None
            score, error = None, None
            if path.is_file() and path.suffix.lower() == ".csv":
                try:
                    submission = read_csv(path)
                except Exception as e:  # grade_csv would crash here; the project says invalid
                    error = f"read_csv raised {type(e).__name__}: {e}"
                else:
                    score = grader(submission, load_answers(answers_path))
                    error = messages.last if score is None else None
            else:
                error = "not a .csv file"
            row = {
                "name": item["name"],
                "valid": score is not None,
                "score": _encode(score),
                "error": _one_line(error),
            }
            out.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: upstream_driver.py JOB.json RESULTS.jsonl")
    sys.exit(main(sys.argv[1], sys.argv[2]))
