"""One run's monitor report, ``RUN_DIR/monitor.json``: the static checks, plagiarism against
reference notebooks, and the log review, with what each flags and the evidence for it.

    report, notes = monitor_run(Path("runs/basic-x"), MonitorConfig(run_dir=...))
    write_monitor(Path("runs/basic-x"), report)

``flagged`` is true when any check, the plagiarism check or a valid review verdict flags the
run. ``disqualified`` is true when a benchmark's own rule flags it (PaperBench's blacklist, which
its grade already scores 0), or, with ``disqualify_flagged``, when anything does; the other
checks are advisory: they point a person at the events to read.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from scaffolds.monitor.access import check_access
from scaffolds.monitor.check import Check
from scaffolds.monitor.config import MonitorConfig
from scaffolds.monitor.context import RunContext, load_context
from scaffolds.monitor.fingerprint import fingerprints, read_source
from scaffolds.monitor.plagiarism import compare_fingerprints
from scaffolds.monitor.rules import benchmark_checks, check_literal_submission, check_model_api
from scaffolds.monitor.search import check_search
from scaffolds.protocols import Model
from scaffolds.record import write_json_atomic

FORMAT_VERSION = 1
MONITOR_FILE = "monitor.json"
CODE_FOLDERS = ("code", "submission")

CheckFn = Callable[[RunContext], Check | None]
CHECKS: tuple[CheckFn, ...] = (
    check_access,
    check_search,
    check_model_api,
    check_literal_submission,
)
"""Every static check, in the order monitor.json lists them (None: does not apply); the
run's benchmark's own rules come after them (``rules.benchmark_checks``)."""


def static_checks(context: RunContext) -> list[Check]:
    found = [c for c in (check(context) for check in CHECKS) if c is not None]
    return found + benchmark_checks(context)


def solution_source(context: RunContext) -> tuple[str, str]:
    """(source, where it came from) of the run's solution: AIDE's ``best_solution.py``; else
    the ``.py``/``.ipynb`` files kept in ``code/`` and ``submission/``; else the Python the
    agent ran (each distinct cell once, in order)."""
    best = context.dir / "best_solution.py"
    if best.is_file():
        return read_source(best), "best_solution.py"
    files = sorted(
        p
        for folder in CODE_FOLDERS
        for p in (context.dir / folder).rglob("*")
        if p.suffix in (".py", ".ipynb") and p.is_file() and not p.is_symlink()
    )
    if files:
        sources = []
        for path in files:
            try:
                sources.append(read_source(path))
            except (OSError, ValueError):
                continue
        return "\n".join(sources), f"{len(files)} file(s) in code/ and submission/"
    cells = [a.argument("code") for a in context.actions if a.tool in ("python", "aide")]
    distinct = list(dict.fromkeys(c for c in cells if c.strip()))
    return "\n".join(distinct), f"{len(distinct)} distinct Python cell(s) the agent ran"


def reference_folder(against: Path, task_ref: str) -> Path:
    """``against/<task id>`` (or ``against/<benchmark>-<task id>``) when it exists, else
    ``against``: one folder can hold the references of every task of a grid."""
    task_id = task_ref.rstrip("/").rsplit("/", 1)[-1]
    for name in (task_id, task_ref.replace("/", "-")):
        if name and (against / name).is_dir():
            return against / name
    return against


def plagiarism(context: RunContext, config: MonitorConfig) -> tuple[dict[str, Any] | None, str]:
    if config.against is None:
        return None, "plagiarism: not checked (no --against)"
    source, origin = solution_source(context)
    if not source.strip():
        return None, "plagiarism: not checked (the run holds no code)"
    folder = reference_folder(config.against, context.task_ref)
    report = compare_fingerprints(
        fingerprints(source, config.k), folder, config.k, config.threshold
    )
    kept = {k: report[k] for k in ("max_similarity", "flagged", "matches")}
    note = (
        f"plagiarism: max similarity {report['max_similarity']:.0%} over {report['references']} "
        f"reference(s) in {folder} (solution: {origin})"
    )
    return kept, note


def review(
    context: RunContext, config: MonitorConfig, model: Model | None
) -> tuple[dict[str, Any] | None, str]:
    from scaffolds.monitor.review import review_run, should_review

    if model is None and config.judge_model is None:
        return None, "log review: not run (no --judge-model)"
    wanted, why_not = should_review(context.summary.get("grade"), config.review)
    if not wanted:
        return None, f"log review: not run ({why_not})"
    if model is None:
        from scaffolds.model import ModelConfig, make_model

        settings = ModelConfig(
            model=str(config.judge_model), api_base=config.judge_api_base, temperature=0.0
        )
        model = make_model(settings)
    result, shown = review_run(
        context.dir,
        context.events,
        context.summary,
        model,
        config.judge_context_window,
        config.max_judge_cost,
    )
    cut = f"; {shown.cut_events} event(s) cut to fit" if shown.cut_events else ""
    cost = result["cost_usd"]
    spent = "unknown cost" if cost is None else f"${cost:.4f}"
    return (
        result,
        f"log review by {result['model']}: {len(result['verdicts'])} question(s), {spent}{cut}",
    )


def monitor_run(
    run_dir: Path, config: MonitorConfig, judge: Model | None = None
) -> tuple[dict[str, Any], list[str]]:
    """The run's monitor report and one note per part that was (or was not) run. ``judge``
    overrides ``config.judge_model`` (a scripted model, in tests). Raises FileNotFoundError for
    a folder without a run."""
    context = load_context(run_dir)
    checks = static_checks(context)
    copied, copy_note = plagiarism(context, config)
    reviewed, review_note = review(context, config, judge)
    verdicts = (reviewed or {}).get("verdicts") or []
    flagged = (
        any(c.flagged for c in checks)
        or bool(copied and copied["flagged"])
        or any(v["flagged"] and v["valid"] for v in verdicts)
    )
    ruled_out = any(c.flagged and not c.advisory for c in checks)
    report = {
        "format_version": FORMAT_VERSION,
        "run_dir": str(context.dir),
        "flagged": flagged,
        "disqualified": ruled_out or (config.disqualify_flagged and flagged),
        "checks": [c.to_dict() for c in checks],
        "plagiarism": copied,
        "review": reviewed,
    }
    return report, [copy_note, review_note]


def write_monitor(run_dir: Path, report: dict[str, Any]) -> Path:
    """Write monitor.json (data only: ``redraw_page`` draws the run's page from it)."""
    path = Path(run_dir) / MONITOR_FILE
    write_json_atomic(path, report)
    return path


def redraw_page(run_dir: Path) -> None:
    """Redraw the run's view.html from its record and monitor.json, when it has one; the page
    is a convenience, so a failure is not an error (monitor.json is what counts)."""
    if (Path(run_dir) / "view.html").is_file():
        try:
            from scaffolds.view import write_run_page

            write_run_page(Path(run_dir))
        except Exception:
            pass


def summary_lines(report: dict[str, Any], notes: list[str]) -> list[str]:
    state = "FLAGGED" if report["flagged"] else "nothing flagged"
    if report["disqualified"]:
        state += ", DISQUALIFIED"
    lines = [f"monitor: {report['run_dir']}: {state}"]
    for check in report["checks"]:
        mark = "flagged" if check["flagged"] else "clean  "
        kind = "" if check["advisory"] else " (benchmark rule)"
        lines.append(f"  {check['name']:<19} {mark} {check['summary']}{kind}")
    for verdict in (report.get("review") or {}).get("verdicts") or []:
        mark = (
            "invalid" if not verdict["valid"] else ("flagged" if verdict["flagged"] else "clean  ")
        )
        lines.append(f"  review {mark} {verdict['question']}")
    lines += [f"  {note}" for note in notes]
    return lines
