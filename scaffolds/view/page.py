"""One run as one self-contained HTML page: the record as JSON inside the page, drawn by the
script and style that ship beside this module (``templates/``). No network, no CDN: the page's
Content-Security-Policy forbids every fetch, and nothing outside the run record goes in.

The page holds each event once (plus, for AIDE, the journal's nodes), so its size grows
linearly with the trajectory; the script renders the transcript a chunk at a time as the
reader scrolls and builds the full text of a long block only when it is unfolded.
"""

from __future__ import annotations

import html
import json
from importlib import resources
from pathlib import Path
from typing import Any

from scaffolds.record import Redactor, write_atomic
from scaffolds.view.events import items
from scaffolds.view.load import RunFiles, load_run

FORMAT_VERSION = 1
PAGE_FILE = "view.html"
MEDALS = ("gold", "silver", "bronze")
GRADE_FIELDS = (
    ("score", "score"),
    ("normalized_reward", "reward"),
    ("leaderboard_rank_pct", "beats % of leaderboard"),
    ("rank_pct", "rank percentile"),
    ("constraint_pass", "constraints passed"),
    ("code_dev_score", "Code-Dev score"),
    ("valid_submission", "valid submission"),
)
"""Grade report keys shown in the header (MLE-bench, PaperBench, TAM-Bench), when present."""


def template(name: str) -> str:
    return resources.files("scaffolds.view").joinpath("templates", name).read_text("utf-8")


def json_for_script(value: Any) -> str:
    """JSON that can sit inside ``<script>``: no ``<``, ``>`` or ``&`` can end or start a tag."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def fill(page: str, title: str, data: Any, scripts: tuple[str, ...]) -> str:
    """The page template with its title, the shared style, its scripts and the data inlined."""
    code = "\n".join(template(name) for name in scripts)
    if "</script" in code.lower():
        raise ValueError(f"{scripts} must not contain </script")
    parts = {
        "/*TITLE*/": html.escape(title),
        "/*STYLE*/": template("view.css"),
        "/*SCRIPT*/": code,
        "/*DATA*/": json_for_script(data),
    }
    text = template(page)
    for marker, value in parts.items():
        text = text.replace(marker, value, 1)
    return text


def medal(grade: dict[str, Any]) -> str | None:
    """``gold``/``silver``/``bronze``, ``none`` without one, None when the report has no medals."""
    if not any(f"{m}_medal" in grade for m in MEDALS):
        return None
    return next((m for m in MEDALS if grade.get(f"{m}_medal")), "none")


def grade_facts(grade: dict[str, Any] | None) -> list[list[str]]:
    """[label, value] pairs for the header's grade line."""
    if not grade:
        return [["grade", "not graded yet"]]
    if grade.get("graded") is False:
        facts = [["grade", f"not graded ({grade.get('reason') or 'graded later'})"]]
        if grade.get("grade_command"):
            facts.append(["grade with", str(grade["grade_command"])])
        return facts
    if grade.get("error"):
        return [["grading failed", str(grade["error"])]]
    facts = [["medal", m]] if (m := medal(grade)) is not None else []
    for key, label in GRADE_FIELDS:
        value = grade.get(key)
        if value is None:
            continue
        if isinstance(value, float):
            value = f"{value:.6g}"
        elif isinstance(value, bool):
            value = "yes" if value else "no"
        facts.append([label, str(value)])
    if grade.get("rank") is not None:
        of = f" of {grade['participants']}" if grade.get("participants") is not None else ""
        facts.append(["rank", f"{grade['rank']}{of}"])
    return facts


def usage_text(usage: dict[str, Any] | None) -> tuple[str, str]:
    usage = usage or {}
    prompt, completion = usage.get("prompt_tokens") or 0, usage.get("completion_tokens") or 0
    reasoning = usage.get("reasoning_tokens") or 0
    tokens = f"{prompt + completion:,} ({prompt:,} in, {completion:,} out"
    tokens += f", {reasoning:,} reasoning)" if reasoning else ")"
    cost = usage.get("cost_usd")
    return tokens, "unknown" if cost is None else f"${cost:.4f}"


def header(files: RunFiles) -> dict[str, Any]:
    s = files.summary
    tokens, cost = usage_text(s.get("usage"))
    facts = [
        ["task", str(s.get("task"))],
        ["benchmark", str(s.get("benchmark"))],
        ["scaffold", str(s.get("scaffold"))],
        ["model", str(s.get("model"))],
        ["status", str(s.get("status"))],
        ["steps", str(s.get("steps"))],
        ["agent time", "?" if s.get("agent_time_s") is None else f"{s['agent_time_s']:.1f} s"],
        ["started", str(s.get("started_at"))],
        ["ended", str(s.get("ended_at") or "not yet")],
        ["tokens", tokens],
        ["cost", cost],
    ]
    if s.get("feedback_usage"):
        tokens, cost = usage_text(s["feedback_usage"])
        facts += [["feedback tokens", tokens], ["feedback cost", cost]]
    if s.get("error"):
        facts.append(["error", str(s["error"])])
    return {
        "title": f"{s.get('scaffold')} on {s.get('task')}",
        "facts": facts,
        "grade": grade_facts(s.get("grade")),
        "grade_report": s.get("grade"),
        "config": s.get("config"),
        "problems": files.problems,
    }


def unescaped(quote: str) -> str | None:
    """A quote taken from the JSON text of a tool call's arguments, as the page shows it."""
    try:
        value = json.loads(f'"{quote}"')
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, str) else None


def event_texts(item: dict[str, Any], tree: dict[str, Any] | None) -> list[str]:
    """The texts the page shows for an event (an AIDE execution also shows its node's output)."""
    texts = [b["text"] for b in item["blocks"]] + [item["title"], *item["facts"]]
    # by id: with nodes in flight the journal lists them in completion order
    nodes = {node["id"]: node for node in tree["nodes"]} if tree else {}
    node = nodes.get(item.get("node")) if item["kind"] == "execution" else None
    if node is not None:
        texts += [node.get("output") or "", node.get("validation") or ""]
    return texts


def place_evidence(monitor: dict[str, Any], shown: list[dict[str, Any]], tree: Any) -> None:
    """Give each evidence quote the form in which the page shows it (``shown_quote``), or None
    when it is not in the text of the event it names."""
    by_number = {it["i"]: it for it in shown}
    for check in monitor.get("checks") or []:
        for evidence in check.get("evidence") or []:
            quote, item = evidence.get("quote"), by_number.get(evidence.get("event"))
            evidence["shown_quote"] = None
            if not isinstance(quote, str) or not quote or item is None:
                continue
            texts = event_texts(item, tree)
            for variant in (quote, unescaped(quote)):
                if variant and any(variant in text for text in texts):
                    evidence["shown_quote"] = variant
                    break


def run_data(files: RunFiles) -> dict[str, Any]:
    shown = items(files.events, aide=files.tree is not None)
    monitor = files.monitor
    if monitor is not None:
        try:
            place_evidence(monitor, shown, files.tree)
        except (AttributeError, TypeError) as exc:  # a monitor.json of another shape
            files.problems.append(f"monitor.json has an unexpected shape: {exc}")
            monitor = None
    return {
        "format_version": FORMAT_VERSION,
        "header": header(files),
        "items": shown,
        "tree": files.tree,
        "monitor": monitor,
    }


def run_page(run_dir: Path, redact: Redactor | None = None) -> str:
    """The page of the run in ``run_dir`` (``NotARun`` if there is none)."""
    files = load_run(run_dir, redact)
    data = run_data(files)
    return fill("run.html", data["header"]["title"], data, ("blocks.js", "run.js"))


def write_private(path: Path, text: str) -> Path:
    """Write by rename, readable by the harness's user only (it holds the whole transcript)."""
    write_atomic(path, text, 0o600)
    return path


def write_run_page(run_dir: Path, out: Path | None = None) -> Path:
    """Write the run's page (default ``RUN_DIR/view.html``); returns its path."""
    return write_private(out or run_dir / PAGE_FILE, run_page(run_dir))
