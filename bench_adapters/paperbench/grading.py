"""Grade one PaperBench submission: the entry point the PaperBench task calls.

    report = grade_paper(paper_dir, submission_dir, reproduce_log, changed_files,
                         GradingOptions(judge_model="o3-mini"))

``paper_dir`` is upstream's ``papers/<id>/`` (``paper.md``, ``addendum.md``,
``judge.addendum.md`` if any, ``rubric.json``). ``submission_dir`` is the submission as
reproduction left it; ``reproduce_log`` is what ``reproduce.sh`` printed (None: not run) and
``changed_files`` the paths, relative to ``submission_dir``, that it created or changed.

The report is ``grade.json``: the whole graded tree (upstream's ``expected_result.json``
shape), ``score`` (= ``normalized_reward``), ``code_dev_score``, breakdowns by task and
fine-grained category, and what the judge cost. ``valid_submission`` says whether the
submission folder exists and holds ``reproduce.sh``. Without a judge model the report says it is
ungraded (``graded: False`` with the reason and the rubric's leaf counts); that is never an
error. A missing submission folder scores 0 on every leaf without asking the judge. A leaf the
judge model failed on (an outage, not a verdict) leaves the report without a score, and
``judge_error`` says how many; a rerun asks only those leaves (the judge log has the rest).
"""

from __future__ import annotations

import os
import re
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from bench_adapters.paperbench.files import Submission
from bench_adapters.paperbench.judge import DEFAULT_WINDOW, PaperText, RubricJudge
from bench_adapters.paperbench.rubric import RubricError, RubricNode, counts, load_rubric, variant
from bench_adapters.paperbench.scoring import LeafGrade, graded_tree, summarize
from scaffolds.judge import Judge
from scaffolds.model import ModelConfig, make_model
from scaffolds.protocols import Model

FORMAT_VERSION = 1
DEFAULT_JUDGE_MODEL = "o3-mini"
"""Upstream's judge, run with ``reasoning_effort="high"``."""
MAX_SCRIPT_CHARS = 100_000
NO_SUBMISSION = "There is no submission folder, so nothing meets this criterion."


@dataclass
class GradingOptions:
    judge_model: str | None = None
    """Any litellm model string; None gives an ungraded report, never a failure."""
    judge_api_base: str | None = None
    """OpenAI-compatible server for ``judge_model``."""
    code_dev: bool = False
    """Grade only the Code Development leaves (PaperBench Code-Dev)."""
    resources_provided: bool = False
    """Datasets and models were given: "Dataset and Model Acquisition" leaves weigh 0."""
    max_judge_cost: float | None = None
    """Stop asking once the judge has cost this many USD; unasked leaves are invalid, score 0."""
    workers: int = 16
    """Questions in flight at once."""
    file_selection: Literal["llm", "bm25"] = "llm"
    """How files are chosen when they do not all fit a prompt: the judge model ranks them
    (upstream's way, so scores compare with published ones), or BM25 (no extra call per leaf)."""
    judge_log: Path | None = None
    """Append-only judge log: a killed grading resumes from it, a repeated prompt is free."""
    context_window: int | None = None
    """The judge's input window in tokens (default: the model's own, else 128k)."""


def judge_config(options: GradingOptions) -> ModelConfig:
    """The judge's model settings: o-series reasoning models run with high effort (as upstream)."""
    name = options.judge_model or DEFAULT_JUDGE_MODEL
    reasoning = re.match(r"o\d", name.rsplit("/", 1)[-1]) is not None
    return ModelConfig(
        model=name, api_base=options.judge_api_base, reasoning_effort="high" if reasoning else None
    )


def grade_paper(
    paper_dir: Path,
    submission_dir: Path,
    reproduce_log: str | None,
    changed_files: list[str] | None,
    options: GradingOptions,
    model: Model | None = None,
) -> dict[str, Any]:
    """The grade report of one submission; ``model`` (a replay or scripted model, in tests)
    overrides ``options.judge_model``. Raises ``RubricError`` for a missing paper or rubric."""
    paper_dir, submission_dir = Path(paper_dir), Path(submission_dir)
    valid = submission_dir.is_dir() and (submission_dir / "reproduce.sh").is_file()
    if model is None and options.judge_model is None:
        return ungraded(paper_dir, options, valid)
    rubric = variant(
        load_rubric(paper_dir / "rubric.json"),
        code_dev_only=options.code_dev,
        resources=options.resources_provided,
    )
    return grade_rubric(
        rubric, paper_dir, submission_dir, reproduce_log, changed_files, options, model
    )


def grade_rubric(
    rubric: RubricNode,
    paper_dir: Path,
    submission_dir: Path,
    reproduce_log: str | None,
    changed_files: list[str] | None,
    options: GradingOptions,
    model: Model | None = None,
) -> dict[str, Any]:
    """``grade_paper`` with the rubric given (already in its Code-Dev / resources variant)."""
    started = time.monotonic()
    valid = submission_dir.is_dir() and (submission_dir / "reproduce.sh").is_file()
    text = paper_text(paper_dir, submission_dir, reproduce_log)
    judge_model = model or make_model(judge_config(options))
    judge = Judge(
        judge_model,
        log=options.judge_log,
        workers=options.workers,
        max_cost_usd=options.max_judge_cost,
    )
    if submission_dir.is_dir():
        submission = Submission.read(submission_dir, changed_files)
        window = options.context_window or _window(judge_model)
        grades = RubricJudge(judge, text, submission, options.file_selection, window).grade(rubric)
    else:
        grades = [LeafGrade(0.0, True, NO_SUBMISSION, {"asked": False})] * len(rubric.leaves())
    tree = graded_tree(rubric, grades)
    summary = summarize(tree)
    failed = sum(1 for g in grades if (g.judge_metadata or {}).get("model_error"))
    # an outage is no judgement of the work: no score until a rerun asks those leaves again
    score = None if failed else summary["score"]
    return {
        "format_version": FORMAT_VERSION,
        "benchmark": "paperbench",
        "paper_id": paper_dir.name,
        "graded": True,
        "score": score,
        "normalized_reward": score,
        "judge_error": (
            f"the judge model failed on {failed} of {len(grades)} leaves (no score; grading "
            "again asks only those, the judge log has the rest)"
            if failed
            else None
        ),
        "code_dev_score": summary["code_dev_score"],
        "valid_submission": valid,
        "code_dev": options.code_dev,
        "resources_provided": options.resources_provided,
        "file_selection": options.file_selection,
        "leaves": summary["leaves"],
        "breakdown": summary["breakdown"],
        "judge": _judge_report(judge, grades, options),
        "grading_s": round(time.monotonic() - started, 3),
        "graded_tree": tree,
    }


def ungraded(paper_dir: Path, options: GradingOptions, valid: bool) -> dict[str, Any]:
    report: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "benchmark": "paperbench",
        "paper_id": paper_dir.name,
        "graded": False,
        "reason": "no judge model: pass --judge-model to grade the rubric",
        "score": None,
        "normalized_reward": None,
        "valid_submission": valid,
        "code_dev": options.code_dev,
    }
    try:
        rubric = variant(
            load_rubric(paper_dir / "rubric.json"),
            code_dev_only=options.code_dev,
            resources=options.resources_provided,
        )
    except RubricError as exc:
        report["rubric_error"] = str(exc)
    else:
        report["leaves"] = {"total": len(rubric.leaves()), **counts(rubric)}
    return report


def paper_text(paper_dir: Path, submission_dir: Path, reproduce_log: str | None) -> PaperText:
    paper = _read(paper_dir / "paper.md")
    if paper is None:
        raise RubricError(f"paper not found: {paper_dir / 'paper.md'}")
    addenda = [_read(paper_dir / "addendum.md"), _read(paper_dir / "judge.addendum.md")]
    addendum = "\n\n".join(a.strip() for a in addenda if a and a.strip()) or "(no addendum)"
    script = _script(submission_dir)
    return PaperText(
        paper=paper,
        addendum=addendum,
        reproduce_sh="(the submission has no reproduce.sh)" if script is None else script,
        reproduce_log="(there is no reproduce.log: reproduction did not run)"
        if reproduce_log is None
        else reproduce_log,
    )


def _script(submission_dir: Path) -> str | None:
    """The start of the submission's ``reproduce.sh`` (``MAX_SCRIPT_CHARS``), read by
    descriptor: a link or anything but a regular file is not read, nor is a byte past what the
    prompt can show (the copy may hold a script of gigabytes)."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(submission_dir / "reproduce.sh", flags)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = f.read(4 * MAX_SCRIPT_CHARS)
    return data.decode("utf-8", errors="replace")[:MAX_SCRIPT_CHARS]


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _window(model: Model) -> int:
    from scaffolds.replay import known_window

    return known_window(model) or DEFAULT_WINDOW


def _judge_report(judge: Judge, grades: list[LeafGrade], options: GradingOptions) -> dict[str, Any]:
    meta = [g.judge_metadata or {} for g in grades]
    asked = [m for m in meta if m.get("asked")]
    errors = [m.get("error") or "" for m in asked]
    return {
        "model": judge.model.name,
        "calls": judge.calls,
        "leaves_asked": len(asked),
        "leaves_cached": sum(1 for m in asked if m.get("cached")),
        "leaves_invalid": sum(1 for e in errors if e),
        "leaves_not_asked_over_cost": sum(1 for e in errors if "cost limit" in e),
        "max_judge_cost": options.max_judge_cost,
        **judge.usage.to_dict(),
    }
