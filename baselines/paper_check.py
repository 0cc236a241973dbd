"""The check of a judge-graded paper task (PaperBench's demo paper), with no judge model.

1. the baseline's repository: valid (the submission contract);
2. it reproduces: ``reproduce.sh`` exits 0 in a fresh copy, run as the agent user;
3. its outputs hold the paper's results (the baseline module's ``check_outputs``);
4. the same repository without ``reproduce.sh``: invalid, with a message;
5. the human-graded tree grades every rubric leaf, and its root score is what its leaves give.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from baselines.judges import Outcome, judge_invalid, one_line
from baselines.registry import baseline_module
from baselines.runner import run_baseline

REPRODUCE_TIMEOUT_S = 600.0


def check_paper(task: Any, folder: Path, options: Any) -> list[Outcome]:
    from bench_adapters.paperbench.reproduce import reproduce

    out = folder / "baseline"
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "log.txt", "w", encoding="utf-8") as log, contextlib.redirect_stdout(log):
        run = run_baseline(task, out, smoke=options.smoke, threads=options.threads)
    submission = Path(run.submission_path)
    ok, message = task.validate(submission)
    outcomes = [Outcome("baseline", "valid", "pass" if ok else "fail", one_line(message))]
    timeout = options.time_budget_s or REPRODUCE_TIMEOUT_S
    reproduction_dir = folder / "reproduction"
    shutil.rmtree(reproduction_dir, ignore_errors=True)
    result = reproduce(submission, reproduction_dir, timeout)
    evidence = f"exit code {result.exit_code}, {result.duration_s:.1f}s, log {result.log_path}"
    outcomes.append(
        Outcome("baseline", "reproduces", "pass" if result.succeeded else "fail", evidence)
    )
    for expectation, held, seen in baseline_module(task.id).check_outputs(Path(result.submission)):
        outcomes.append(
            Outcome("baseline", expectation, "pass" if held else "fail", one_line(seen))
        )
    outcomes.append(judge_invalid(task, "no-reproduce-sh", without_script(submission, folder)))
    outcomes.append(check_graded_tree(task))
    return outcomes


def without_script(submission: Path, folder: Path) -> Path:
    """A copy of the repository with ``reproduce.sh`` removed and the removal committed."""
    broken = folder / "no-reproduce-sh"
    shutil.rmtree(broken, ignore_errors=True)
    shutil.copytree(submission, broken, symlinks=True)
    git = ["git", "-c", "user.name=check", "-c", "user.email=check@example.com", "-C", str(broken)]
    subprocess.run([*git, "rm", "--quiet", "reproduce.sh"], check=True, capture_output=True)
    subprocess.run([*git, "commit", "--quiet", "-m", "drop"], check=True, capture_output=True)
    return broken


def check_graded_tree(task: Any) -> Outcome:
    from bench_adapters.paperbench.rubric import load_rubric
    from bench_adapters.paperbench.scoring import graded_tree, grades_from_tree, summarize

    expectation = "human-graded tree covers the rubric"
    paper = task.paper
    path = (
        paper.dir.parent.parent / "judge_eval" / paper.id / "0" / "grading" / "expected_result.json"
    )
    if not path.is_file():
        return Outcome("graded-tree", expectation, "skip", f"no graded tree at {path}")
    tree = json.loads(path.read_text(encoding="utf-8"))
    rubric_ids = [leaf.id for leaf in load_rubric(paper.rubric_path).leaves()]
    tree_ids = [leaf.id for leaf in load_rubric(path).leaves()]
    if tree_ids != rubric_ids:
        missing = sorted(set(rubric_ids) - set(tree_ids))
        return Outcome("graded-tree", expectation, "fail", f"leaves differ, e.g. {missing[:3]}")
    score = summarize(graded_tree(load_rubric(paper.rubric_path), grades_from_tree(tree)))["score"]
    held = abs(score - tree["score"]) < 1e-9
    evidence = f"{len(tree_ids)} leaves; root {tree['score']:.4f}, from its leaves {score:.4f}"
    return Outcome("graded-tree", expectation, "pass" if held else "fail", evidence)
