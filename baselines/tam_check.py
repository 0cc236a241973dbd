"""The grader check of a TAM-Bench task: the same four submissions as MLE-bench's, judged on the
leaderboard rank instead of medals.

1. the answers in submission form: valid, and rank 1 on the real leaderboard;
2. the sample submission (where the task has one): valid, and not in the leaderboard's top half;
3. the baseline's submission: valid, better than the sample, and in the top half;
4. the gold file without its last column, entry, line or row (whatever the format has), and a
   file in the wrong format: invalid, with a message.

A leaderboard position says something only for real data: on synthetic data (a folder
``bench_adapters.tam.synthetic`` wrote) the top-half expectations are skipped with the reason.
"""

from __future__ import annotations

import contextlib
import json
import traceback
from pathlib import Path
from typing import Any

import pandas as pd

from baselines.judges import Outcome, judge_beats_sample, judge_invalid, judge_valid, one_line
from baselines.registry import has_baseline
from baselines.runner import run_baseline

SYNTHETIC = "synthetic data: a rank on the real leaderboard says nothing about it"


def _half(task: Any, name: str, report: dict[str, Any], top: bool) -> Outcome:
    from bench_adapters.tam.synthetic import is_synthetic

    expectation = "in the leaderboard's top half" if top else "not in the leaderboard's top half"
    if is_synthetic(task.prepared_dir):
        return Outcome(name, expectation, "skip", SYNTHETIC)
    if report["rank_pct"] is None:
        return Outcome(name, expectation, "fail", "no rank (invalid submission)")
    held = (report["rank_pct"] <= 0.5) == top
    evidence = f"rank {report['rank']}/{report['participants']} ({report['rank_pct']:.3f})"
    return Outcome(name, expectation, "pass" if held else "fail", evidence)


def check_gold(task: Any, folder: Path) -> tuple[list[Outcome], Path]:
    from bench_adapters.tam.synthetic import write_gold

    path = write_gold(
        task.info.id, task.prepared_dir, folder / f"gold{Path(task.info.submission).suffix}"
    )
    report = task.grade(path)
    outcomes = [judge_valid(task, "gold", report, path)]
    held = report["rank"] == 1
    evidence = f"score {report['score']}, rank {report['rank']}/{report['participants']}"
    outcomes.append(Outcome("gold", "rank 1", "pass" if held else "fail", evidence))
    return outcomes, path


def check_sample(task: Any) -> tuple[list[Outcome], float | None]:
    if task.sample_submission_path is None:
        return [Outcome("sample", "valid", "skip", "the task has no sample submission")], None
    report = task.grade(task.sample_submission_path)
    valid = judge_valid(task, "sample", report, task.sample_submission_path)
    return [valid, _half(task, "sample", report, top=False)], report["score"]


def check_baseline(task: Any, folder: Path, options: Any, sample: float | None) -> list[Outcome]:
    if not has_baseline(task.id):
        return [Outcome("baseline", "valid, top half", "skip", "no baseline for this task")]
    out = folder / "baseline"
    out.mkdir(parents=True, exist_ok=True)
    log = out / "log.txt"
    with open(log, "w", encoding="utf-8") as f, contextlib.redirect_stdout(f):
        try:
            run = run_baseline(task, out, smoke=options.smoke, time_budget_s=options.time_budget_s,
                               threads=options.threads)  # fmt: skip
        except Exception as e:  # a crashing baseline is a finding, not the end of the check
            traceback.print_exc(file=f)
            return [Outcome("baseline", "runs", "fail", one_line(f"crashed: {e} (log: {log})"))]
    report = run.grade
    outcomes = [judge_valid(task, "baseline", report, Path(run.submission_path))]
    if sample is not None:
        outcomes.append(judge_beats_sample(task, report, sample))
    if options.smoke:
        reason = "--smoke: the baseline trained on a small sample; check without --smoke"
        outcomes.append(Outcome("baseline", "in the leaderboard's top half", "skip", reason))
    else:
        outcomes.append(_half(task, "baseline", report, top=True))
    return outcomes


def corrupted(task: Any, gold: Path, folder: Path) -> dict[str, Path]:
    """Broken copies of the gold file, in its own format, and one in another format."""
    suffix = gold.suffix
    paths = {
        "wrong-format": folder / ("wrong-format.txt" if suffix != ".txt" else "wrong-format.csv")
    }
    paths["wrong-format"].write_text("not a submission\n")
    if suffix == ".json":
        data = json.loads(gold.read_text())
        first = next(iter(data))
        missing = {k: v for k, v in data.items() if k != first}
        paths["missing-entry"] = folder / "missing-entry.json"
        paths["missing-entry"].write_text(json.dumps(missing))
    elif suffix == ".txt":
        lines = gold.read_text().splitlines()
        paths["missing-line"] = folder / "missing-line.txt"
        paths["missing-line"].write_text("\n".join(lines[:-1]) + "\n")
        paths["short-line"] = folder / "short-line.txt"
        paths["short-line"].write_text("\n".join([lines[0].rsplit(",", 1)[0], *lines[1:]]) + "\n")
    elif suffix == ".parquet":
        frame = pd.read_parquet(gold)
        paths["missing-row"] = folder / "missing-row.parquet"
        frame.iloc[:-1].to_parquet(paths["missing-row"], index=False)
        paths["missing-column"] = folder / "missing-column.parquet"
        frame.drop(columns=frame.columns[-1]).to_parquet(paths["missing-column"], index=False)
    else:
        frame = pd.read_csv(gold, dtype=str, keep_default_na=False)
        paths["missing-column"] = folder / "missing-column.csv"
        frame.drop(columns=frame.columns[-1]).to_csv(paths["missing-column"], index=False)
        paths["wrong-row-count"] = folder / "wrong-row-count.csv"
        frame.iloc[:-1].to_csv(paths["wrong-row-count"], index=False)
    return paths


def check_tam(task: Any, folder: Path, options: Any) -> list[Outcome]:
    gold_outcomes, gold = check_gold(task, folder)
    sample_outcomes, sample = check_sample(task)
    outcomes = [*gold_outcomes, *sample_outcomes, *check_baseline(task, folder, options, sample)]
    outcomes += [
        judge_invalid(task, name, path) for name, path in corrupted(task, gold, folder).items()
    ]
    return outcomes
