"""Agent instructions assembled from the template files under ``prompts/<set>/``.

A prompt set holds ``instructions.md`` (the benchmark's rules, in workspace paths), ``notes.md``
(hardware, time and step limits) and ``task.md`` (how the parts and the task description are
joined); ``*_obfuscated.md`` variants, when present, are used for obfuscated tasks.
Templates use ``string.Template`` placeholders (``$name``).
"""

from __future__ import annotations

from importlib import resources
from string import Template


def load_template(prompt_set: str, name: str, obfuscate: bool = False) -> Template:
    """``prompts/<prompt_set>/<name>.md``, or its ``_obfuscated`` variant when asked and present."""
    folder = resources.files("prompts").joinpath(prompt_set)
    if obfuscate and folder.joinpath(f"{name}_obfuscated.md").is_file():
        name = f"{name}_obfuscated"
    return Template(folder.joinpath(f"{name}.md").read_text(encoding="utf-8"))


def format_duration(seconds: float) -> str:
    """``5400`` -> ``"1 hour 30 minutes"``; whole seconds, zero parts left out."""
    s = max(0, round(seconds))
    parts = [(s // 3600, "hour"), (s % 3600 // 60, "minute"), (s % 60, "second")]
    words = [f"{n} {unit}{'' if n == 1 else 's'}" for n, unit in parts if n]
    return " ".join(words) or "0 seconds"


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
    rules = load_template(prompt_set, "instructions", obfuscate).substitute(
        submission_path=submission_relpath
    )
    notes = load_template(prompt_set, "notes", obfuscate).substitute(
        hardware=hardware,
        time_limit=format_duration(time_limit_s),
        step_limit=step_limit_text(max_steps),
        submission_path=submission_relpath,
    )
    return load_template(prompt_set, "task", obfuscate).substitute(
        instructions=rules.strip(), notes=notes.strip(), description=description.strip()
    )
