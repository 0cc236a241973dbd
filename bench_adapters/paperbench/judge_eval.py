"""JudgeEval: how well the rubric judge agrees with human graders, leaf by leaf.

Upstream's layout, under the PaperBench data folder::

    judge_eval/<paper>/<n>/submission.tar                   a reference submission, reproduced
    judge_eval/<paper>/<n>/grading/expected_result.json     its rubric tree, graded by humans
    papers/<paper>/{paper.md, addendum.md, judge.addendum.md}

Each submission is graded with its expected tree as the rubric (that tree is what the humans
graded; for two papers it differs from today's ``rubric.json``). The changed files come from the
archive: those modified at or after the time in ``reproduce.log.creation_time`` (else
``reproduce.log``'s own time). Each leaf the judge graded validly is compared with the human 0/1
grade; invalid ones are left out and counted. Metrics also come per task category.

Metrics per paper, over its submissions' leaves: accuracy, and precision, recall and F1
macro-averaged over the two classes (upstream computes them with scikit-learn's
``average="macro"``, so a random judge scores F1 0.5); ``macro`` is their mean over papers.
"""

from __future__ import annotations

import json
import tarfile
import tempfile
from dataclasses import replace
from pathlib import Path, PurePosixPath
from typing import Any

from bench_adapters.paperbench.files import REPRODUCTION_FILES
from bench_adapters.paperbench.grading import GradingOptions, grade_rubric
from bench_adapters.paperbench.rubric import RubricError, parse_rubric
from bench_adapters.paperbench.scoring import graded_leaves, grades_from_tree
from scaffolds.protocols import Model

METRICS = ("accuracy", "precision", "recall", "f1")


def metrics(pairs: list[tuple[int, int]]) -> dict[str, float] | None:
    """Accuracy, and precision, recall and F1 averaged over the classes present, of
    ``(human, judge)`` grades; a ratio with nothing to divide by is 0 (scikit-learn's
    ``zero_division=0``)."""
    if not pairs:
        return None
    classes = sorted({h for h, _ in pairs} | {j for _, j in pairs})
    per_class = [_class_scores(pairs, c) for c in classes]
    precision, recall, f1 = (sum(s[i] for s in per_class) / len(classes) for i in range(3))
    accuracy = sum(1 for h, j in pairs if h == j) / len(pairs)
    return {"accuracy": accuracy, "precision": precision, "recall": recall, "f1": f1}


def _class_scores(pairs: list[tuple[int, int]], c: int) -> tuple[float, float, float]:
    hits = sum(1 for h, j in pairs if h == j == c)
    said = sum(1 for _, j in pairs if j == c)
    true = sum(1 for h, _ in pairs if h == c)
    p = hits / said if said else 0.0
    r = hits / true if true else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def submissions(data_dir: Path, papers: list[str] | None = None) -> list[Path]:
    """Every ``judge_eval/<paper>/<n>/`` folder holding an expected result, in order."""
    root = data_dir / "judge_eval"
    if not root.is_dir():
        raise RubricError(f"no judge_eval folder in {data_dir}")
    found = sorted(p.parent.parent for p in root.glob("*/*/grading/expected_result.json"))
    return [p for p in found if papers is None or p.parent.name in papers]


def extract(archive: Path, dest: Path) -> Path:
    """Unpack ``submission.tar`` (regular files and folders only, nothing outside ``dest``),
    keeping modification times; the submission's root (a lone top folder is stepped into)."""
    with tarfile.open(archive) as tar:
        safe = [
            m
            for m in tar.getmembers()
            if (m.isfile() or m.isdir())
            and not PurePosixPath(m.name).is_absolute()
            and ".." not in PurePosixPath(m.name).parts
        ]
        if hasattr(tarfile, "data_filter"):
            tar.extractall(dest, members=safe, filter="data")
        else:  # Python < 3.11.4: the checks above are the filter
            tar.extractall(dest, members=safe)
    entries = list(dest.iterdir())
    return entries[0] if len(entries) == 1 and entries[0].is_dir() else dest


def reproduction(root: Path) -> tuple[str | None, list[str] | None]:
    """``reproduce.log`` and the files reproduction changed, as the archive records them."""
    log, stamp = root / "reproduce.log", root / "reproduce.log.creation_time"
    if not log.is_file():
        return None, None
    try:
        since = float(stamp.read_text().strip())
    except (OSError, ValueError):
        since = log.stat().st_mtime
    changed = [
        p.relative_to(root).as_posix()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.stat().st_mtime >= since
    ]
    text = log.read_text(encoding="utf-8", errors="replace")
    return text, [p for p in changed if p not in REPRODUCTION_FILES]


def judge_eval(
    data_dir: Path,
    options: GradingOptions,
    model: Model | None = None,
    out_dir: Path | None = None,
    papers: list[str] | None = None,
) -> dict[str, Any]:
    """Grade every reference submission and compare with the human grades."""
    per_paper: dict[str, dict[str, Any]] = {}
    for folder in submissions(data_dir, papers):
        paper = folder.parent.name
        entry = per_paper.setdefault(paper, {"submissions": [], "pairs": [], "cost_usd": 0.0})
        run = dict(submission=folder.name, **_one(data_dir, folder, options, model, out_dir))
        entry["pairs"] += run.pop("pairs")
        entry["cost_usd"] += run["cost_usd"] or 0.0
        entry["submissions"].append(run)
    report: dict[str, Any] = {
        "format_version": 1,
        "file_selection": options.file_selection,
        "judge_model": model.name if model else options.judge_model,
        "papers": {},
    }
    for paper, entry in per_paper.items():
        pairs = entry.pop("pairs")
        by_category = {
            c: metrics([(h, j) for cat, h, j in pairs if cat == c])
            for c in sorted({cat for cat, _, _ in pairs})
        }
        report["papers"][paper] = {
            **entry,
            "leaves": len(pairs),
            "metrics": metrics([(h, j) for _, h, j in pairs]),
            "by_category": by_category,
        }
    scored = [p["metrics"] for p in report["papers"].values() if p["metrics"]]
    report["macro"] = (
        {k: sum(m[k] for m in scored) / len(scored) for k in METRICS} if scored else None
    )
    report["cost_usd"] = sum(p["cost_usd"] for p in report["papers"].values())
    return report


def _one(
    data_dir: Path,
    folder: Path,
    options: GradingOptions,
    model: Model | None,
    out_dir: Path | None,
) -> dict[str, Any]:
    paper = folder.parent.name
    expected_path = folder / "grading" / "expected_result.json"
    try:
        expected = json.loads(expected_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise RubricError(f"{expected_path}: unreadable ({exc})") from None
    rubric = parse_rubric(expected, str(expected_path))
    human = [int(g.score >= 0.5) for g in grades_from_tree(expected)]
    name = f"{paper}-{folder.name}"
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        options = replace(options, judge_log=out_dir / f"{name}.judge.jsonl")
    with tempfile.TemporaryDirectory(prefix="judge-eval-") as tmp:
        archive = folder / "submission.tar"
        root = extract(archive, Path(tmp)) if archive.is_file() else Path(tmp) / "missing"
        log, changed = reproduction(root) if root.is_dir() else (None, None)
        report = grade_rubric(
            rubric, data_dir / "papers" / paper, root, log, changed, options, model
        )
    if out_dir is not None:
        (out_dir / f"{name}.grade.json").write_text(json.dumps(report, indent=1) + "\n")
    judged = graded_leaves(report["graded_tree"])
    pairs = [
        (j["task_category"], h, int(j["score"]))
        for h, j in zip(human, judged, strict=True)
        if j["valid_score"]
    ]
    return {
        "pairs": pairs,
        "leaves": len(judged),
        "invalid": len(judged) - len(pairs),
        "judge_score": report["score"],
        "human_score": expected.get("score"),
        "metrics": metrics([(h, j) for _, h, j in pairs]),
        "cost_usd": report["judge"]["cost_usd"],
    }
