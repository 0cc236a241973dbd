"""The task description an agent reads, built from the upstream spec and the files at hand.

The spec's own words (goal, metric, target, data, output format, special instructions) are
kept; this package adds the direction of the metric, the submission format it grades (from
``prompts/tam/formats/``, which wins where the spec is vague or disagrees with the grader) and
a listing of the files actually in ``data/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import prompts
from bench_adapters.tam.specs import TaskInfo, load_spec, split_constraints

MAX_LISTED = 40
"""Entries of ``data/`` listed at most (folders are summarised by their file count)."""


def _data_text(info: dict[str, Any]) -> str:
    lines = [f"Data type: {info.get('data_type', '')}"]
    for part in ("train", "test", "inference"):
        entry = info.get(part) or {}
        where, what = entry.get("data_location", ""), entry.get("data_description", "")
        if where or what:
            lines.append(f"- **{part}** ({where or 'no location given'}): {what}")
    return "\n".join(lines)


def list_files(public_dir: Path) -> str:
    """Top-level entries of the public folder, as the agent will see them under ``data/``."""
    if not public_dir.is_dir():
        return "(the data folder is not prepared)"
    entries = sorted(public_dir.iterdir(), key=lambda p: (p.is_file(), p.name))
    lines = []
    for entry in entries[:MAX_LISTED]:
        if entry.is_dir():
            count = sum(1 for p in entry.rglob("*") if p.is_file())
            lines.append(f"- `data/{entry.name}/` ({count} files)")
        else:
            lines.append(f"- `data/{entry.name}` ({entry.stat().st_size:,} bytes)")
    if len(entries) > MAX_LISTED:
        lines.append(f"- ... and {len(entries) - MAX_LISTED} more")
    return "\n".join(lines) or "(empty)"


def graded_format(info: TaskInfo, submission_relpath: str) -> str:
    name = "formats/" + info.id.replace("/", "-")
    return prompts.render("tam", name, trim="whitespace", submission_path=submission_relpath)


def describe(info: TaskInfo, public_dir: Path, submission_relpath: str) -> str:
    spec = load_spec(info.id)
    metric = spec.get("metric") or {}
    formula = str(metric.get("metric_formula") or "").strip()
    items = split_constraints(spec["special_instructions"])
    return prompts.render(
        "tam",
        "description",
        trim="none",
        name=info.name,
        modality=info.modality_label,
        difficulty=info.difficulty,
        task_type=spec.get("task_type", ""),
        goal=spec.get("goal_description", ""),
        metric_name=metric.get("metric_name") or info.metric,
        direction="lower is better" if info.lower_is_better else "higher is better",
        metric_formula=f"\n\n{formula}" if formula else "",
        target=spec.get("target_col", ""),
        data=_data_text(spec.get("data_information") or {}),
        output_format=str(spec.get("output_format", "")).replace("\\n", "\n"),
        graded_format=graded_format(info, submission_relpath),
        constraints="\n".join(f"{i}. {c}" for i, c in enumerate(items, start=1)),
        files=list_files(public_dir),
    )
