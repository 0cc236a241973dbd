"""Agent instructions assembled from the template files under ``prompts/<set>/``.

A prompt set holds ``instructions.md`` (the benchmark's rules, in workspace paths), ``notes.md``
(hardware, time and step limits) and ``task.md`` (how the parts and the task description are
joined); ``*_obfuscated.md`` variants, when present, are used for obfuscated tasks. The
templates are read by the one prompt loader (``prompts.render``): the rules and the notes are
stripped of surrounding whitespace before they are joined, and the joined text is kept as it
comes (``trim="none"``).
"""

from __future__ import annotations

import prompts
from scaffolds.timefmt import format_duration


def step_limit_text(max_steps: int | None) -> str:
    if max_steps is None:
        return "There is no limit on the number of steps."
    return f"You have at most {max_steps} steps to produce your submission."


def render_instructions(
    prompt_set: str,
    *,
    description: str,
    hardware: str,
    time_limit_s: float,
    max_steps: int | None,
    obfuscate: bool = False,
    submission_relpath: str = "submission/submission.csv",
) -> str:
    """The full text an agent receives: rules, limits, then the task description."""
    variant = "obfuscated" if obfuscate else None
    rules = prompts.render(
        prompt_set,
        "instructions",
        trim="whitespace",
        variant=variant,
        submission_path=submission_relpath,
    )
    notes = prompts.render(
        prompt_set,
        "notes",
        trim="whitespace",
        variant=variant,
        hardware=hardware,
        time_limit=format_duration(time_limit_s),
        step_limit=step_limit_text(max_steps),
        submission_path=submission_relpath,
    )
    return prompts.render(
        prompt_set,
        "task",
        trim="none",
        variant=variant,
        instructions=rules,
        notes=notes,
        description=description.strip(),
    )
