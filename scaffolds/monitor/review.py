"""The log reviewer: a model reads a run's trajectory and answers MLE-bench's rule questions.

It is a client of the one judge mechanism (``scaffolds.judge``): one question per
``prompts/monitor/question_*.md`` file (a new question is a new file), each asked with the whole
transcript (``transcript``: cut to fit the model's window, cuts marked), answered by a forced
tool call typed as ``ReviewVerdict``. A reply that does not parse is asked again (the judge's
bounded attempts) and, failing that, recorded as an invalid verdict, never an exception; the
judge log (``monitor_judge.jsonl`` in the run folder) makes a repeated review free.

As in the MLE-bench paper, only runs worth a medal are reviewed by default: a run whose grade
has a medal or is above the median (``should_review``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

import prompts
from scaffolds.judge import Judge, Question
from scaffolds.monitor.transcript import Transcript, render
from scaffolds.protocols import Model
from scaffolds.replay import known_window

PROMPT_SET = "monitor"
TOOL = "submit_answer"
JUDGE_LOG = "monitor_judge.jsonl"
DEFAULT_WINDOW = 128_000
"""Input window in tokens when neither the flag nor litellm knows the model's."""
RESERVED_TOKENS = 6000
"""The reply, the instructions and the question, kept out of the transcript's share."""
CHARS_PER_TOKEN = 3.5
"""A pessimistic estimate for logs full of code: the safe side for a window."""
Which = Literal["medalled", "all"]


class ReviewVerdict(BaseModel):
    """Give your answer to the question about the agent's log."""

    justification: str = Field(description="What the agent did, naming the events you rely on")
    evidence: str = Field(
        description="Lines of the log that show it, copied exactly with their event numbers; "
        "empty when the answer is no"
    )
    flagged: bool = Field(description="true when the answer to the question is yes")


def render_prompt(name: str, **values: object) -> str:
    """``prompts/monitor/<name>.md`` filled in, stripped of whitespace at both ends."""
    return prompts.render(PROMPT_SET, name, values, trim="whitespace")


def questions() -> list[tuple[str, str]]:
    """(key, text) of every ``prompts/monitor/question_<key>.md``, by key."""
    names = prompts.names(PROMPT_SET, "question_")
    return [(n.removeprefix("question_"), prompts.text(PROMPT_SET, n).strip()) for n in names]


def should_review(grade: dict[str, Any] | None, which: Which) -> tuple[bool, str]:
    """(review it?, why not): by default only runs with a medal or above the median."""
    if which == "all":
        return True, ""
    grade = grade or {}
    if grade.get("any_medal") or grade.get("above_median"):
        return True, ""
    return False, "the run has no medal and is not above the median (--review all reviews it)"


def window_of(model: Model, override: int | None) -> int:
    if override:
        return override
    return int(known_window(model) or DEFAULT_WINDOW)


def log_prompt(summary: dict[str, Any], transcript: str, question: str) -> str:
    return render_prompt(
        "review_log",
        task=summary.get("task"),
        scaffold=summary.get("scaffold"),
        model=summary.get("model"),
        status=summary.get("status"),
        transcript=transcript,
        question=question,
    )


def review_run(
    run_dir: Path,
    events: list[tuple[int, dict[str, Any]]],
    summary: dict[str, Any],
    model: Model,
    window: int | None = None,
    max_cost_usd: float | None = None,
) -> tuple[dict[str, Any], Transcript]:
    """The ``review`` part of monitor.json (the model, a verdict per question, the cost), and
    the transcript the model was shown."""
    asked = questions()
    system = render_prompt("review_system", tool=TOOL)
    longest = max((text for _, text in asked), key=len, default="")
    frame = len(system) + len(log_prompt(summary, "", longest))
    tokens = window_of(model, window) - RESERVED_TOKENS
    shown: Transcript = render(events, max(2000, int(tokens * CHARS_PER_TOKEN) - frame))
    judge = Judge(
        model, log=Path(run_dir) / JUDGE_LOG, workers=4, max_cost_usd=max_cost_usd, tool_name=TOOL
    )
    batch = [
        Question(key, [{"role": "system", "content": system},
                       {"role": "user", "content": log_prompt(summary, shown.text, text)}])
        for key, text in asked
    ]  # fmt: skip
    texts = dict(asked)
    verdicts = []
    for answer in judge.ask_all(batch, ReviewVerdict):
        question = texts[answer.key].splitlines()[0]
        if answer.valid and answer.verdict is not None:
            v = answer.verdict
            evidence = "\n\n".join(p for p in (v.evidence.strip(), v.justification.strip()) if p)
            verdicts.append({"question": question, "flagged": v.flagged, "evidence": evidence,
                             "valid": True})  # fmt: skip
        else:
            verdicts.append({"question": question, "flagged": False,
                             "evidence": f"no valid answer: {answer.error}", "valid": False})  # fmt: skip
    return {"model": model.name, "verdicts": verdicts, "cost_usd": judge.usage.cost_usd}, shown
