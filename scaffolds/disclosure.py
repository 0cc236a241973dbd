"""A grid's disclosure, ``DISCLOSURE.md`` and ``disclosure.json``: what a leaderboard asks every
entry to state (MLE-bench's paper, section 2.3, and its 2026 split of the board), filled from
the runs' own records, with no hand-written field but the optional notes.

It states the models (as asked for, and as the provider named them), the scaffolds and AIDE
policies with every setting that differs from the scaffold's default, each run's machine,
limits and use (time, steps, tokens, cost), the agent's internet access, the prompt files by
sha256, the seeds per task, the runs missing or failed and why, the known upstream issues of
the tasks run, the monitors' flags, each benchmark's headline in its own form, and integrity.

Integrity: every run's record must show that no score from the private answers reached its
agent (``scaffolds.integrity.verify``). A run whose record does not (a violation, grading
before its sandbox closed, answers exposed, or no integrity block: an older record) is listed
by name and left out of the headline: it counts there as a run with no result. MLE-bench's
headline is given per split that the grid covers in full; a split covered in part is named
with what it lacks, and its numbers are not given.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from scaffolds.grid.aggregate import RATES, ComboSummary, summarize
from scaffolds.grid.plan import RunSpec, planned_runs
from scaffolds.grid.results import CRASHED, current_rows
from scaffolds.grid.runstate import read_run_json
from scaffolds.integrity import verify
from scaffolds.record import write_atomic, write_json_atomic
from scaffolds.stats import MeanSem

DISCLOSURE_MD = "DISCLOSURE.md"
DISCLOSURE_JSON = "disclosure.json"
PER_RUN = {"task", "model", "seed", "out", "resume", "agent_user"}
"""Config fields each run of a grid sets for itself: not settings to disclose."""
FAILED = {CRASHED, "harness_error", "model_error"}
STATEMENT = "No score computed from the private answers reached an agent"


def defaults(scaffold: str) -> dict[str, Any]:
    """The scaffold's default settings, as run.json's ``config`` spells them."""
    from aide_tree import AideConfig
    from basic_agent import BasicConfig

    config = AideConfig if scaffold == "aide" else BasicConfig
    return {
        name: field.get_default(call_default_factory=True)
        for name, field in config.model_fields.items()
        if not field.is_required()
    }


def run_folder(grid_dir: Path, name: str, row: dict[str, Any]) -> Path:
    """The run's folder, as its results row names it."""
    return grid_dir / str(row.get("run_dir") or f"runs/{name}")


def machine_line(machine: Any) -> str:
    if not isinstance(machine, dict):
        return "not recorded"
    gpus = machine.get("gpus") if machine.get("gpu_count") else "no GPU"
    return f"{gpus}; {machine.get('cpu_cores')} CPU cores; {machine.get('memory_gib')} GiB memory"


def settings(records: dict[str, dict[str, Any]]) -> dict[str, dict[str, list[Any]]]:
    """Scaffold -> setting -> the values its runs used, for each that is not the default."""
    found: dict[str, dict[str, list[Any]]] = {}
    for record in records.values():
        scaffold = str(record.get("scaffold"))
        default = json.loads(json.dumps(defaults(scaffold), default=str))
        for key, value in (record.get("config") or {}).items():
            if key in PER_RUN or key not in default or default[key] == value:
                continue
            values = found.setdefault(scaffold, {}).setdefault(key, [])
            if value not in values:
                values.append(value)
    return found


def headline(summaries: list[ComboSummary]) -> list[dict[str, Any]]:
    def stat(value: MeanSem) -> dict[str, float]:
        return {"mean": round(value.mean, 4), "sem": round(value.sem, 4)}

    return [
        {
            "arm": s.arm,
            "model": s.model,
            "seeds": len(s.seeds),
            **{f"{key}_pct": stat(s.rates[key]) for key in RATES},
            "pass_at_k_pct": [round(v, 4) for v in s.pass_at],
        }
        for s in summaries
    ]


def benchmark_headlines(rows: list[dict[str, Any]], plan: list[RunSpec]) -> dict[str, Any]:
    """Each benchmark's headline: per split its adapter names (full or partial), and its own
    report sections (TAM-Bench's tables, PaperBench's replication score)."""
    from bench_adapters.registry import ADAPTERS, get_benchmark
    from scaffolds.report import benchmark_sections

    out: dict[str, Any] = {}
    tasks = list(dict.fromkeys(s.task for s in plan))
    for name in dict.fromkeys(t.partition("/")[0] for t in tasks):
        if name not in ADAPTERS:  # a task folder given by path: no benchmark to speak for it
            continue
        adapter = get_benchmark(name)
        in_benchmark = [s for s in plan if s.task.startswith(f"{name}/")]
        run = {s.task.partition("/")[2] for s in in_benchmark}
        splits = []
        for split in adapter.splits():
            ids = set(adapter.list_ids(split))
            if not ids & run:
                continue
            missing = sorted(ids - run)
            entry: dict[str, Any] = {"split": split, "tasks": len(ids), "missing": missing}
            if not missing:
                chosen = [s for s in in_benchmark if s.task.partition("/")[2] in ids]
                entry["results"] = headline(summarize(rows, chosen))
            splits.append(entry)
        out[name] = {
            "tasks_run": sorted(run),
            "all_tasks_run": headline(summarize(rows, in_benchmark)),
            "splits": splits,
        }
    sections = benchmark_sections(rows, plan)
    return {"benchmarks": out, "sections": [s.markdown for s in sections]}


def monitor_flags(grid_dir: Path, rows: dict[str, dict[str, Any]]) -> dict[str, dict[str, bool]]:
    """Run -> the monitors' flags (any, disqualifying, plagiarism), for each run with a
    ``monitor.json``."""
    from scaffolds.monitor.grid import read_monitor

    flags = {}
    for name, row in rows.items():
        report = read_monitor(run_folder(grid_dir, name, row))
        if report is None:
            continue
        flags[name] = {k: bool(report.get(k)) for k in ("flagged", "disqualified")}
        flags[name]["plagiarism"] = bool((report.get("plagiarism") or {}).get("flagged"))
    return flags


def known_issues(tasks: list[str]) -> dict[str, list[str]]:
    """Task -> its benchmark's known upstream issues (``known_issues`` of its adapter)."""
    from bench_adapters.registry import ADAPTERS, HasKnownIssues, get_benchmark

    issues = {}
    for task in tasks:
        bench, _, task_id = task.partition("/")
        if bench not in ADAPTERS:  # a task folder given by path: nothing known
            continue
        adapter = get_benchmark(bench)
        lines = adapter.known_issues(task_id) if isinstance(adapter, HasKnownIssues) else []
        if lines:
            issues[task] = lines
    return issues


def prompt_files(records: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Prompt file -> every sha256 the runs' records give it (more than one: it changed)."""
    found: dict[str, list[str]] = {}
    for record in records:
        for name, sha in (record.get("prompts") or {}).items():
            if sha not in found.setdefault(name, []):
                found[name].append(sha)
    return dict(sorted(found.items()))


def run_entry(
    name: str, row: dict[str, Any], record: dict[str, Any], problem: str | None
) -> dict[str, Any]:
    return {
        "run": name,
        **{k: row.get(k) for k in ("scaffold", "policy", "model", "task", "seed", "status")},
        "machine": machine_line(record.get("machine")),
        "agent_network": (record.get("sandbox") or {}).get("network"),
        "time_limit_s": (record.get("limits") or {}).get("time_limit_s"),
        **{k: row.get(k) for k in ("agent_time_s", "wall_time_s", "steps", "tokens", "cost_usd")},
        "integrity": problem or "verified",
    }


def disclosure(grid_dir: Path, notes: str | None = None) -> dict[str, Any]:
    """The grid's disclosure as plain data (what ``disclosure.json`` holds)."""
    from scaffolds.monitor.grid import monitor_section
    from scaffolds.report import last_report_options

    plan = planned_runs(grid_dir)
    rows = current_rows(grid_dir)
    records = {
        n: r
        for n, row in rows.items()
        if (r := read_run_json(run_folder(grid_dir, n, row))) is not None
    }
    runs, excluded = [], []
    failed: list[dict[str, Any]] = [
        {"run": s.name, "task": s.task, "status": "missing", "why": "no result"}
        for s in plan
        if s.name not in rows
    ]
    for name, row in sorted(rows.items()):
        record = records.get(name)
        problem = verify(record) if record else None
        runs.append(run_entry(name, row, record or {}, problem if record else "no run.json"))
        if row.get("status") in FAILED or not record:
            why = row.get("error") or (record or {}).get("error") or "no run.json"
            failed.append(
                {"run": name, "task": row.get("task"), "status": row.get("status"), "why": why}
            )
        if problem is not None:
            excluded.append({"run": name, "reason": problem})
    left_out = {e["run"] for e in excluded}
    counted, _ = monitor_section(  # as the report counts them: disqualified runs win no medal
        [r for n, r in rows.items() if n not in left_out],
        grid_dir,
        last_report_options(grid_dir)["disqualify_flagged"],
    )
    providers: dict[str, set[str]] = {}
    for name, record in records.items():  # keyed by the grid's model string, as planned
        providers.setdefault(rows[name]["model"], set()).update(record.get("provider_models") or [])
    seeds: dict[str, list[int]] = {}
    for spec in plan:
        seeds.setdefault(spec.task, []).append(spec.seed)
    return {
        "format_version": 1,
        "grid": str(grid_dir),
        "models": [
            {"model": m, "provider_models": sorted(providers.get(m, []))}
            for m in dict.fromkeys(s.model for s in plan)
        ],
        "arms": list(dict.fromkeys(s.arm for s in plan)),
        "settings": settings(records),
        "hardware": dict(Counter(r["machine"] for r in runs)),
        "agent_network": dict(Counter(str(r["agent_network"]) for r in runs)),
        "runs": runs,
        "prompts": prompt_files(list(records.values())),
        "seeds": {task: sorted(set(v)) for task, v in seeds.items()},
        "missing_or_failed": failed,
        "known_issues": known_issues(list(seeds)),
        "monitor": monitor_flags(grid_dir, rows),
        "headline": benchmark_headlines(counted, plan),
        "integrity": {
            "statement": STATEMENT,
            "runs": len(runs),
            "verified": sum(r["integrity"] == "verified" for r in runs),
            "excluded": excluded,
        },
        "notes": notes,
    }


def _pct(stat: dict[str, float]) -> str:
    sem = "NaN" if stat["sem"] != stat["sem"] else f"{stat['sem']:.1f}"
    return f"{stat['mean']:.1f} ± {sem}"


def results_table(results: list[dict[str, Any]]) -> list[str]:
    lines: list[str] = ["| arm | model | seeds | any medal (%) | above median (%) | valid submission (%) "
             "| pass@k (%) |", "|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in results:
        passes = ", ".join(f"{v:.1f}" for v in r["pass_at_k_pct"])
        lines.append(
            f"| {r['arm']} | `{r['model']}` | {r['seeds']} | {_pct(r['any_medal_pct'])} | "
            f"{_pct(r['above_median_pct'])} | {_pct(r['valid_submission_pct'])} | {passes} |"
        )
    return lines


def markdown(data: dict[str, Any]) -> str:
    """``DISCLOSURE.md``: the same facts as ``disclosure.json``, for a reader."""
    integrity = data["integrity"]
    lines = ["# Disclosure", "", f"Grid `{data['grid']}`: {integrity['runs']} run(s). Every "
             "field below is read from the runs' records (`scaffolds.disclosure`).", ""]  # fmt: skip
    lines += ["## Integrity", ""]
    if integrity["excluded"]:
        lines += [f"{STATEMENT} in {integrity['verified']} of {integrity['runs']} run(s). These "
                  "runs' records do not show it; they are left out of the headline (counted "
                  "as runs with no result):", ""]  # fmt: skip
        lines += [f"- `{e['run']}`: {e['reason']}" for e in integrity["excluded"]]
    else:
        lines += [f"{STATEMENT}: verified from the records of {integrity['verified']} of "
                  f"{integrity['runs']} run(s) (sandbox closed before grading, no violation, "
                  "answers never exposed; a run with no record is listed under Tasks and "
                  "seeds, with no result)."]  # fmt: skip
    lines += ["", "## Models and scaffolds", ""]
    for m in data["models"]:
        named = ", ".join(f"`{n}`" for n in m["provider_models"]) or "not reported"
        lines.append(f"- `{m['model']}` (the provider named it {named})")
    lines.append(f"- scaffolds: {', '.join(data['arms'])}")
    for scaffold, values in data["settings"].items():
        changed = "; ".join(f"`{k}` = {', '.join(json.dumps(v) for v in vs)}"
                            for k, vs in values.items())  # fmt: skip
        lines.append(f"- settings of {scaffold} that differ from its defaults: {changed}")
    lines += ["", "## Hardware, internet, limits and use", ""]
    lines += [f"- {count} run(s) on {line}" for line, count in data["hardware"].items()]
    lines += [f"- agent internet access `{net}`: {count} run(s)"
              for net, count in data["agent_network"].items()]  # fmt: skip
    lines += ["", "| run | status | time limit (s) | agent time (s) | steps | tokens | cost (USD) |",
              "|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in data["runs"]:
        lines.append(f"| {r['run']} | {r['status']} | {r['time_limit_s']} | {r['agent_time_s']} "
                     f"| {r['steps']} | {r['tokens']} | {r['cost_usd'] or 'unknown'} |")  # fmt: skip
    lines += ["", "## Tasks and seeds", ""]
    lines += [
        f"- `{task}`: seeds {', '.join(map(str, seeds))}" for task, seeds in data["seeds"].items()
    ]
    if data["missing_or_failed"]:
        lines += ["", "Missing or failed:", ""]
        lines += [f"- `{m['run']}` ({m['status']}): {m['why']}" for m in data["missing_or_failed"]]
    if data["known_issues"]:
        lines += ["", "Known upstream issues of the tasks run:", ""]
        lines += [
            f"- `{t}`: {line}" for t, issues in data["known_issues"].items() for line in issues
        ]
    lines += ["", "## Monitors", ""]
    if data["monitor"]:
        lines += [f"{len(data['monitor'])} run(s) monitored. Runs with each flag:", ""]
        for flag in ("flagged", "disqualified", "plagiarism"):
            runs = [f"`{n}`" for n, m in data["monitor"].items() if m[flag]]
            lines.append(f"- {flag}: {', '.join(runs) or 'none'}")
    else:
        lines.append("The monitors were not run on this grid.")
    lines += ["", "## Headline", ""]
    for name, bench in data["headline"]["benchmarks"].items():
        lines += [f"### {name}: the {len(bench['tasks_run'])} task(s) run", ""]
        lines += results_table(bench["all_tasks_run"])
        for split in bench["splits"]:
            if split["missing"]:
                lines += ["", f"Split `{split['split']}`: covered in part, {len(split['missing'])} "
                          f"of its {split['tasks']} tasks not run; no headline for it."]  # fmt: skip
            else:
                lines += ["", f"Split `{split['split']}` ({split['tasks']} tasks, all run):", ""]
                lines += results_table(split["results"])
        lines.append("")
    lines += data["headline"]["sections"]
    lines += ["", "## Prompts", "", "Every prompt file the runs read, by sha256:", ""]
    lines += [
        f"- `{n}`: {', '.join(f'`{s[:16]}`' for s in shas)}" for n, shas in data["prompts"].items()
    ]
    if data["notes"]:
        lines += ["", "## Notes", "", data["notes"].rstrip()]
    return "\n".join(lines) + "\n"


def write_disclosure(grid_dir: Path, notes: str | None = None) -> tuple[list[Path], int]:
    """Write both files; return them and how many runs were left out for integrity."""
    data = disclosure(grid_dir, notes)
    write_json_atomic(grid_dir / DISCLOSURE_JSON, data)
    write_atomic(grid_dir / DISCLOSURE_MD, markdown(data), 0o644)
    return [grid_dir / DISCLOSURE_MD, grid_dir / DISCLOSURE_JSON], len(
        data["integrity"]["excluded"]
    )
