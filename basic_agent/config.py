"""BasicAgent's options: the shared run options plus the format-error limit."""

from __future__ import annotations

from pydantic import Field

from scaffolds.config import RunConfig


class BasicConfig(RunConfig):
    """Options of BasicAgent and IterativeAgent. Saved whole in ``run.json``."""

    max_format_errors: int = Field(
        5, ge=1, description="End the run after this many malformed tool calls in a row"
    )
