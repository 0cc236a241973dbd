"""IterativeAgent: BasicAgent without ``answer``. It works until its time or steps run out.

Every model call is sent one more user message asking for the next step; that message is never
kept in the conversation or the record. When the run ends, for whatever reason, the file at the
submission path is validated (as the agent user) and the verdict recorded; the runtime grades it.
"""

from __future__ import annotations

from typing import ClassVar

from basic_agent import BasicAgent
from scaffolds.protocols import Message


class IterativeAgent(BasicAgent):
    """Call as ``IterativeAgent(config)(run)``; ends only on a limit or an exhausted model."""

    include_answer: ClassVar[bool] = False
    prompt_sets: ClassVar[tuple[str, ...]] = ("iterative", "basic")

    def prompt_messages(self) -> list[Message]:
        ask = self.prompt("next_step", reminder=self.run.budget.reminder())
        return [*self.messages, {"role": "user", "content": ask}]

    def end(self) -> None:
        """Validate the submission file as the agent user and record the verdict."""
        observation = self.toolset.call("validate_submission", "{}")
        self.run.record.event(
            "final_validation",
            path=self.run.task.submission_relpath,
            outcome=observation.kind,
            text=observation.text,
        )
